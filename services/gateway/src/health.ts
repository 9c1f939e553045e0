import { Accounts } from "@collab/accounts-contract";
import { call, settingsLoaded, settingsWanted, type RouteDef } from "@collab/core";
import type { ServiceBroker } from "moleculer";
import type { IncomingMessage, ServerResponse } from "node:http";
import { mountedRoutes } from "./routes";

/** The services a route table calls (the first segment of each action), the gateway's own aside. */
export const servicesOf = (routes: readonly RouteDef[]): string[] =>
  [...new Set(routes.map((r) => r.action.split(".")[0]))].filter((name) => name !== "gateway");

/** Services whose absence makes this gateway unready: every service it routes requests to. */
export const REQUIRED_SERVICES = servicesOf(mountedRoutes);

function send(res: ServerResponse, status: number, body: unknown, type = "application/json") {
  res.statusCode = status;
  res.setHeader("Content-Type", type);
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/** The database answers, as the service that authenticates every request sees it (local or remote). */
async function databaseAnswers(broker: ServiceBroker): Promise<boolean> {
  try {
    await call(broker, Accounts.health, {}, { timeout: 2000, retries: 0 });
    return true;
  } catch {
    return false;
  }
}

/**
 * GitLab's probes: /-/health answers plain "GitLab OK" with no dependency checks,
 * /-/liveness {"status":"ok"}, /-/readiness checks what the API needs to serve (503 otherwise):
 * the broker, the transporter, every service it routes to, and the database (db_check, asked of
 * accounts, which every request needs). Answers false for any other path, else a promise that
 * settles once the probe is answered.
 */
export function answerProbe(
  broker: ServiceBroker,
  req: IncomingMessage,
  res: ServerResponse,
  required: readonly string[] = REQUIRED_SERVICES,
): false | Promise<void> {
  const url = req.url ?? "";
  const path = url.split("?")[0];
  if (path === "/-/health") {
    send(res, 200, "GitLab OK", "text/plain; charset=utf-8");
    return Promise.resolve();
  }
  if (path === "/-/liveness") {
    send(res, 200, { status: "ok" });
    return Promise.resolve();
  }
  if (path !== "/-/readiness") return false;
  return (async () => {
    const all = /[?&]all=(1|true)/.test(url);
    const checks: Record<string, { status: string; message?: string }[]> = {};
    let ok = broker.started !== false;
    checks.master_check = [{ status: ok ? "ok" : "failed", ...(ok ? {} : { message: "broker not started" }) }];
    if (broker.transit) {
      const connected = broker.transit.connected;
      ok &&= connected;
      if (all) checks.transporter_check = [{ status: connected ? "ok" : "failed" }];
    }
    if (settingsWanted()) {
      const loaded = settingsLoaded();
      ok &&= loaded;
      if (all || !loaded) checks.settings_check = [{ status: loaded ? "ok" : "failed", ...(loaded ? {} : { message: "application settings not loaded yet" }) }];
    }
    const available = new Set(broker.registry.getServiceList({ onlyAvailable: true }).map((s) => s.name));
    for (const name of required) {
      const up = available.has(name);
      ok &&= up;
      if (all || !up) checks[`${name}_check`] = [{ status: up ? "ok" : "failed", ...(up ? {} : { message: "no available node" }) }];
    }
    if (required.includes("accounts") && available.has("accounts")) {
      const db = await databaseAnswers(broker);
      ok &&= db;
      if (all || !db) checks.db_check = [{ status: db ? "ok" : "failed", ...(db ? {} : { message: "the database does not answer" }) }];
    }
    send(res, ok ? 200 : 503, { status: ok ? "ok" : "failed", ...checks });
  })();
}
