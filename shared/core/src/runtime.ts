import type { ServiceBroker, ServiceSchema } from "moleculer";
import { createServer, type Server } from "node:http";
import { createBroker } from "./broker";
import { loadConfig, type Config } from "./config";
import { call, serviceContract } from "./contract";
import { settingsLoaded, settingsWanted } from "./settings";

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
  if (settingsWanted()) add("settings_check", settingsLoaded(), "application settings not loaded yet");
  await Promise.all(
    local.map(async (name) => {
      // Until its started() hook (migrations) finishes, a service is not registered yet.
      if (!broker.registry.hasService(name, broker.nodeID)) return add(`${name}_check`, false, "starting");
      try {
        await call(broker, serviceContract(name).health, {}, { timeout: 2000, nodeID: broker.nodeID });
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

interface FatalLog {
  fatal(obj: object, msg: string): void;
}

/**
 * The process policy of every entry point: an error nobody handled (an uncaught exception, a
 * rejected promise nobody awaited) leaves the process in an unknown state, so it is logged and the
 * process exits with 1, for its supervisor (Kubernetes, compose, a terminal) to start it again.
 */
export function exitOnUnhandledErrors(logger: FatalLog): void {
  const die = (kind: string) => (err: unknown) => {
    const e = err instanceof Error ? { message: err.message, stack: err.stack } : { message: String(err) };
    logger.fatal({ err: e }, `${kind}: exiting`);
    process.exit(1);
  };
  process.on("uncaughtException", die("uncaught exception"));
  process.on("unhandledRejection", die("unhandled promise rejection"));
}

/**
 * The one shutdown path: SIGTERM or SIGINT runs `stop` once (stop taking requests, drain them,
 * let workers finish their step, close the pool), then exits 0, or 1 if it failed. A second
 * signal while stopping exits at once. A cluster worker (`npm start`'s, see apps/standalone)
 * stops when its primary says so (SIGTERM) or is gone (the IPC channel closed); it ignores
 * SIGINT (a terminal's Ctrl-C reaches the whole process group, and the primary's SIGTERM follows)
 * and lets its stop finish whatever comes next.
 */
export function stopOnSignals(stop: (signal: string) => Promise<void>, { clusterWorker = false }: { clusterWorker?: boolean } = {}): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) {
      if (!clusterWorker) process.exit(1);
      return;
    }
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  if (!clusterWorker) process.on("SIGINT", () => onSignal("SIGINT"));
  else {
    process.on("SIGINT", () => undefined);
    process.on("disconnect", () => onSignal("primary exited"));
  }
}

/**
 * Runs one node of the system (a single service in distributed mode): starts the broker, the
 * probe server and metrics, and stops gracefully on SIGTERM — readiness fails first so traffic
 * drains, then the broker waits for in-flight requests (tracking), the services' workers finish
 * their step and their pools close, before it leaves the registry.
 */
export async function runNode({ services, dependsOn = [], config = loadConfig() }: NodeOptions): Promise<ServiceBroker> {
  const broker = createBroker({ config, services });
  let stopping = false;
  const local = services.map((s) => s.name).filter((n) => n !== "gateway");
  const probes = config.HEALTH_PORT ? startProbeServer(broker, config.HEALTH_PORT, local, dependsOn, () => stopping) : undefined;
  exitOnUnhandledErrors(broker.getLogger("process") as unknown as FatalLog);
  stopOnSignals(async (signal) => {
    stopping = true;
    broker.logger.info({ signal }, "stopping");
    await broker.stop();
    probes?.close();
  });
  await broker.start();
  return broker;
}
