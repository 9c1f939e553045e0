import type { ServiceBroker, ServiceSchema } from "moleculer";
import { createServer, type Server } from "node:http";
import { createBroker } from "./broker";
import { loadConfig, type Config } from "./config";

export interface NodeOptions {
  /** Services this process runs. */
  services: ServiceSchema[];
  /** Remote services this node needs before it reports ready. */
  dependsOn?: string[];
  config?: Config;
}

/**
 * Readiness of one process: broker started, transporter connected, every local service healthy
 * (its `<name>.health` action pings its database) and the services it depends on reachable.
 */
export async function readiness(broker: ServiceBroker, local: string[], dependsOn: string[]): Promise<{ ok: boolean; checks: Record<string, { status: string; message?: string }[]> }> {
  const checks: Record<string, { status: string; message?: string }[]> = {};
  const add = (name: string, ok: boolean, message?: string) => (checks[name] = [{ status: ok ? "ok" : "failed", ...(ok || !message ? {} : { message }) }]);
  add("master_check", broker.started, "broker not started");
  if (broker.transit) add("transporter_check", broker.transit.connected, "transporter disconnected");
  await Promise.all(
    local.map(async (name) => {
      // Until its started() hook (migrations) finishes, a service is not registered yet.
      if (!broker.registry.hasService(name, broker.nodeID)) return add(`${name}_check`, false, "starting");
      try {
        await broker.call(`${name}.health`, {}, { timeout: 2000, nodeID: broker.nodeID });
        add(`${name}_check`, true);
      } catch (err) {
        add(`${name}_check`, false, (err as Error).message);
      }
    }),
  );
  const available = new Set(broker.registry.getServiceList({ onlyAvailable: true }).map((s) => s.name));
  for (const dep of dependsOn) add(`${dep}_check`, available.has(dep), "no available node");
  return { ok: Object.values(checks).every((c) => c[0].status === "ok"), checks };
}

/** GitLab-style probes on their own port for processes that serve no HTTP API. */
export function startProbeServer(broker: ServiceBroker, port: number, local: string[], dependsOn: string[], stopping: () => boolean): Server {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    res.setHeader("Content-Type", "application/json");
    if (path === "/-/liveness") {
      res.end(JSON.stringify({ status: "ok" }));
    } else if (path === "/-/readiness") {
      const { ok, checks } = await readiness(broker, local, dependsOn);
      const ready = ok && !stopping();
      res.statusCode = ready ? 200 : 503;
      res.end(JSON.stringify({ status: ready ? "ok" : "failed", ...checks }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: "404 Not Found" }));
    }
  });
  server.listen(port, "0.0.0.0");
  return server;
}

/**
 * Runs one node of the system (a single service in distributed mode): starts the broker, the
 * probe server and metrics, and stops gracefully on SIGTERM — readiness fails first so traffic
 * drains, then the broker waits for in-flight requests (tracking) before leaving the registry.
 */
export async function runNode({ services, dependsOn = [], config = loadConfig() }: NodeOptions): Promise<ServiceBroker> {
  const broker = createBroker({ config, services });
  let stopping = false;
  const local = services.map((s) => s.name).filter((n) => n !== "gateway");
  const probes = config.HEALTH_PORT ? startProbeServer(broker, config.HEALTH_PORT, local, dependsOn, () => stopping) : undefined;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    broker.logger.info({ signal }, "stopping");
    try {
      await broker.stop();
      probes?.close();
      process.exit(0);
    } catch {
      process.exit(1);
    }
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  await broker.start();
  return broker;
}
