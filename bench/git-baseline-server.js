// The clone scenario's baseline: git's own smart-HTTP server, `git http-backend` (CGI), behind a
// minimal node:http wrapper, serving the storage folder the benchmarked repository lives in
// (GIT_PROJECT_ROOT; GIT_HTTP_EXPORT_ALL: no access check, no authentication). One CGI process per
// request, as a web server runs it; the wrapper only passes the request and the answer through.
//
//   GIT_PROJECT_ROOT=<folder> PORT=<port> node bench/git-baseline-server.js
"use strict";
const http = require("node:http");
const { spawn } = require("node:child_process");

const root = process.env.GIT_PROJECT_ROOT;
if (!root) throw new Error("GIT_PROJECT_ROOT is required");

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://localhost");
  if (url.pathname === "/-/readiness") return void res.end("ok");
  const cgi = spawn("git", ["http-backend"], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      REQUEST_METHOD: req.method,
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
      ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
      ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: req.headers["git-protocol"] } : {}),
      REMOTE_ADDR: req.socket.remoteAddress ?? "",
    },
    stdio: ["pipe", "pipe", "ignore"],
  });
  req.pipe(cgi.stdin);
  cgi.stdin.on("error", () => undefined);
  // CGI answers headers, a blank line, then the body: pass the headers on, stream the rest.
  let head = Buffer.alloc(0);
  let started = false;
  cgi.stdout.on("data", (chunk) => {
    if (started) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) return;
    started = true;
    for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
      const i = line.indexOf(":");
      const [name, value] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
      if (/^status$/i.test(name)) res.statusCode = Number(value.split(" ")[0]);
      else res.setHeader(name, value);
    }
    res.write(head.subarray(end + 4));
  });
  cgi.on("close", (code) => {
    if (!started) res.statusCode = 500;
    res.end();
    if (code) process.stderr.write(`git http-backend ${req.method} ${url.pathname}: exit ${code}\n`);
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => server.close(() => process.exit(0)));
