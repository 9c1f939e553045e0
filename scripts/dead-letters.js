#!/usr/bin/env node
// Dead letters of domain events (events a consumer gave up on after its retries), through the
// admin API of a running Collab:
//   COLLAB_TOKEN=<admin token> npm run dead-letters -- list [page]
//   COLLAB_TOKEN=… npm run dead-letters -- show <id>
//   COLLAB_TOKEN=… npm run dead-letters -- replay <id>|all
//   COLLAB_TOKEN=… npm run dead-letters -- delete <id>
// COLLAB_URL is the API's base URL (default http://localhost:3000). Prints JSON; exits 1 when the
// API refuses or a replay failed.
"use strict";

const base = (process.env.COLLAB_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const token = process.env.COLLAB_TOKEN;
const [command, arg] = process.argv.slice(2);

async function api(method, path) {
  const res = await fetch(`${base}/api/v4/admin/dead_letters${path}`, { method, headers: { "PRIVATE-TOKEN": token } });
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${path || "/"}: ${res.status} ${text}`);
  return { body, total: res.headers.get("x-total") };
}

const id = () => {
  if (!/^\d+$/.test(arg ?? "")) throw new Error(`${command} needs a letter's id (see: list)`);
  return arg;
};

async function main() {
  if (!token) throw new Error("COLLAB_TOKEN (an administrator's personal access token) is required");
  switch (command) {
    case "list": {
      const { body, total } = await api("GET", `?per_page=100&page=${Number(arg ?? 1)}`);
      console.log(JSON.stringify({ total: Number(total ?? body.length), letters: body }, null, 2));
      return true;
    }
    case "show":
      console.log(JSON.stringify((await api("GET", `/${id()}`)).body, null, 2));
      return true;
    case "replay": {
      const { body } = arg === "all" ? await api("POST", "/replay") : await api("POST", `/${id()}/replay`);
      console.log(JSON.stringify(body, null, 2));
      return [].concat(body).every((o) => o.replayed);
    }
    case "delete":
      await api("DELETE", `/${id()}`);
      return true;
    default:
      throw new Error("usage: dead-letters list [page] | show <id> | replay <id>|all | delete <id>");
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    console.error(err.message);
    process.exit(1);
  },
);
