import type { Cluster, Worker } from "node:cluster";
import { Transporters, type ServiceSchema } from "moleculer";
import { z } from "zod";
import { actionContract, actionsOf, call, implement } from "./contract";

/**
 * The bus between the workers of one single-node API (`WORKERS` > 1, apps/standalone): Moleculer
 * packets over node:cluster's IPC channel, relayed by the primary process to the other workers.
 * Every worker runs every service, so calls and balanced events stay in the worker that made
 * them (the broker prefers local endpoints); the bus carries what must reach every worker —
 * the cache flushes a write waits for (flushed-caches.ts), broadcasts such as the settings
 * snapshot — and the registry's discovery and heartbeats. Nothing outside the process tree can
 * write to these pipes: as in one process, nothing on them is signed (bus-auth-middleware.ts
 * guards the buses other processes can reach).
 */
type BusMessage =
  | { collabBus: "packet"; topic: string; data: Uint8Array }
  /** A worker's broker announces its node id, so that its death can be told to the others. */
  | { collabBus: "hello"; nodeID: string }
  /** From the primary: that worker's process has exited. */
  | { collabBus: "gone"; nodeID: string }
  /** From the primary: the node ids of every live worker that has said hello. */
  | { collabBus: "peers"; nodeIDs: string[] };

/** How long a starting worker waits to be known by its siblings before it takes requests anyway. */
const PEERING_TIMEOUT_MS = 30_000;

/** The workers' own service: what a worker's registry holds, asked by a sibling that is starting. */
export const WorkerBus = {
  knownNodes: actionContract("worker-bus.knownNodes", { input: () => z.object({}), output: () => z.array(z.string()), idempotent: true }),
};

/** Runs in every worker beside the API's services (embedded.ts): answers WorkerBus.knownNodes. */
export const workerBusService = (): ServiceSchema => ({
  name: "worker-bus",
  actions: actionsOf("worker-bus", [implement(WorkerBus.knownNodes, (ctx) => ctx.broker.registry.nodes.list({ onlyAvailable: true }).map((n: { id: string }) => n.id))]),
});

const isBusMessage = (m: unknown): m is BusMessage => typeof m === "object" && m !== null && typeof (m as { collabBus?: unknown }).collabBus === "string";

/**
 * The transporter of a worker's broker (process.send to the primary, process 'message' from it).
 * A worker takes requests only once it and its siblings know each other (peered()).
 */
export class WorkerBusTransporter extends Transporters.Base {
  /** Subscribed topic → its packet type. */
  private readonly topics = new Map<string, string>();
  private listener?: (message: unknown) => void;
  /** The other live workers, as the primary last listed them. */
  private peers: string[] | undefined;

  constructor() {
    super({});
  }

  async connect(): Promise<void> {
    if (!process.send) throw new Error("WorkerBusTransporter runs in a process forked with an IPC channel (a cluster worker)");
    this.listener = (message) => {
      if (!isBusMessage(message)) return;
      if (message.collabBus === "packet") {
        const cmd = this.topics.get(message.topic);
        // Structured clone hands a Buffer over as a plain Uint8Array: the serializer wants a Buffer.
        if (cmd) void this.receive(cmd, Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
      } else if (message.collabBus === "gone" && message.nodeID !== this.nodeID) {
        // At once instead of after the heartbeat timeout: calls to it fail now, flushes stop waiting for it.
        this.peers = this.peers?.filter((id) => id !== message.nodeID);
        this.broker.registry.nodes.disconnected(message.nodeID, true);
      } else if (message.collabBus === "peers") {
        this.peers = message.nodeIDs.filter((id) => id !== this.nodeID);
      }
    };
    process.on("message", this.listener);
    this.post({ collabBus: "hello", nodeID: this.nodeID });
    await this.onConnected();
  }

  /**
   * Resolves once this worker and every sibling the primary listed know each other (each has the
   * other in its registry): until then a write on a sibling would not flush what this worker
   * holds, so it must not take requests yet (holdRequestsUntil). The registry learns a node from
   * its INFO packet, sent once its broker has started; this asks each sibling (WorkerBus.knownNodes).
   * After PEERING_TIMEOUT_MS it resolves anyway, logging the siblings that did not answer.
   */
  async peered(): Promise<void> {
    const deadline = Date.now() + PEERING_TIMEOUT_MS;
    let missing: string[] = [];
    while (Date.now() < deadline) {
      missing = this.peers === undefined || !this.broker?.started ? ["(the primary's list)"] : await this.unpeered(this.peers);
      if (!missing.length) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    this.logger.error({ siblings: missing }, "siblings did not learn of this worker in time: taking requests; what they flush may miss this worker for 30 s");
  }

  /** The siblings that this worker, or that do not yet, know the other. */
  private async unpeered(peers: string[]): Promise<string[]> {
    const known = (id: string) => this.broker.registry.nodes.get(id)?.available === true;
    const results = await Promise.all(
      peers.map(async (id) => {
        if (!known(id)) return id;
        try {
          const known = await call(this.broker, WorkerBus.knownNodes, {}, { nodeID: id, timeout: 1_000, retries: 0 });
          return known.includes(this.nodeID) ? undefined : id;
        } catch {
          return id;
        }
      }),
    );
    return results.filter((id): id is string => id !== undefined);
  }

  async disconnect(): Promise<void> {
    this.connected = false;
    if (this.listener) process.off("message", this.listener);
    this.listener = undefined;
  }

  async subscribe(cmd: string, nodeID?: string): Promise<void> {
    this.topics.set(this.getTopicName(cmd, nodeID), cmd);
  }

  // The broker balances (hasBuiltInBalancer is false): nothing to subscribe for balanced packets.
  async subscribeBalancedRequest(): Promise<void> {}
  async subscribeBalancedEvent(): Promise<void> {}

  async send(topic: string, data: Buffer): Promise<void> {
    this.post({ collabBus: "packet", topic, data });
  }

  private post(message: BusMessage) {
    // A primary that is gone (the channel closed) is the end of this worker anyway: it is stopping.
    if (process.connected) process.send!(message);
  }
}

/**
 * The primary's half: every bus message of a worker goes to the other workers (each keeps what it
 * subscribed to), and a worker that exits is announced to the others as gone. Fork the workers
 * with `serialization: "advanced"` (cluster.setupPrimary) so packets cross as bytes.
 */
export function relayWorkerBus(cluster: Cluster): void {
  const nodeOf = new Map<number, string>();
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
  const others = (from: Worker) => live().filter((w) => w !== from);
  cluster.on("message", (worker, message) => {
    if (!isBusMessage(message)) return;
    if (message.collabBus === "hello") {
      nodeOf.set(worker.id, message.nodeID);
      const peers: BusMessage = { collabBus: "peers", nodeIDs: [...nodeOf.values()] };
      for (const w of live()) w.send(peers);
    }
    if (message.collabBus !== "packet") return;
    for (const w of others(worker)) w.send(message);
  });
  cluster.on("exit", (worker) => {
    const nodeID = nodeOf.get(worker.id);
    nodeOf.delete(worker.id);
    if (nodeID) for (const w of others(worker)) w.send({ collabBus: "gone", nodeID } satisfies BusMessage);
  });
}
