import type { ServiceBroker } from "moleculer";
import type { IncomingMessage, ServerResponse } from "node:http";

/** Services whose absence makes this gateway unready. */
export const REQUIRED_SERVICES = ["accounts", "namespaces"];

function send(res: ServerResponse, status: number, body: unknown, type = "application/json") {
  res.statusCode = status;
  res.setHeader("Content-Type", type);
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/**
 * GitLab's probes: /-/health answers plain "GitLab OK" with no dependency checks,
 * /-/liveness {"status":"ok"}, /-/readiness checks what the API needs to serve (503 otherwise).
 */
export function answerProbe(broker: ServiceBroker, req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? "";
  const path = url.split("?")[0];
  if (path === "/-/health") {
    send(res, 200, "GitLab OK", "text/plain; charset=utf-8");
    return true;
  }
  if (path === "/-/liveness") {
    send(res, 200, { status: "ok" });
    return true;
  }
  if (path === "/-/readiness") {
    const all = /[?&]all=(1|true)/.test(url);
    const checks: Record<string, { status: string; message?: string }[]> = {};
    let ok = broker.started !== false;
    checks.master_check = [{ status: ok ? "ok" : "failed", ...(ok ? {} : { message: "broker not started" }) }];
    if (broker.transit) {
      const connected = broker.transit.connected;
      ok &&= connected;
      if (all) checks.transporter_check = [{ status: connected ? "ok" : "failed" }];
    }
    for (const name of REQUIRED_SERVICES) {
      const up = broker.registry.hasService(name);
      ok &&= up;
      if (all || !up) checks[`${name}_check`] = [{ status: up ? "ok" : "failed", ...(up ? {} : { message: "no available node" }) }];
    }
    send(res, ok ? 200 : 503, { status: ok ? "ok" : "failed", ...checks });
    return true;
  }
  return false;
}
