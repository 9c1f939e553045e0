// A TCP proxy in front of the test PostgreSQL, for fault tests of the distributed pass: it can
// freeze every connection open at that moment — bytes stop flowing both ways while the sockets
// stay open and their TCP keepalives are still answered, as behind a stalled load balancer or a
// failed-over address — and let new connections through. Controlled over HTTP on loopback:
//   POST <controlUrl>/freeze   POST <controlUrl>/thaw (resumes the frozen connections)
"use strict";
const http = require("node:http");
const net = require("node:net");

async function startDbProxy(targetUrl) {
  const target = new URL(targetUrl);
  const pairs = new Set();
  const frozen = new Set();

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      pairs.delete(pair);
      frozen.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));

  const freeze = () => {
    for (const pair of pairs) {
      if (frozen.has(pair)) continue;
      frozen.add(pair);
      pair.client.unpipe(pair.upstream);
      pair.upstream.unpipe(pair.client);
      pair.client.pause();
      pair.upstream.pause();
    }
    return frozen.size;
  };
  const thaw = () => {
    const n = frozen.size;
    for (const pair of frozen) {
      pair.client.pipe(pair.upstream);
      pair.upstream.pipe(pair.client);
      pair.client.resume();
      pair.upstream.resume();
    }
    frozen.clear();
    return n;
  };

  const control = http.createServer((req, res) => {
    const n = req.method === "POST" && req.url === "/freeze" ? freeze() : req.method === "POST" && req.url === "/thaw" ? thaw() : undefined;
    res.statusCode = n === undefined ? 404 : 200;
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify(n === undefined ? { error: "POST /freeze or /thaw" } : { connections: n }));
  });
  await new Promise((resolve) => control.listen(0, "127.0.0.1", resolve));

  const proxied = new URL(targetUrl);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(server.address().port);
  return {
    /** The target URL with the proxy's address: give it to the processes under test. */
    url: proxied.toString(),
    controlUrl: `http://127.0.0.1:${control.address().port}`,
    async stop() {
      thaw();
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => control.close(r))]);
    },
  };
}

module.exports = { startDbProxy };
