import type { Context, Middleware, ServiceBroker } from "moleculer";
import { readPrivateKey, readPublicKey, Signer, Verifier, type CallerAssertion, type ServiceAssertion } from "./bus-auth";
import { splitList, type Config } from "./config";
import { ApiError } from "./errors";
import type { Meta } from "./meta";

/** How long a process's service identity holds; it mints a new one well before. */
const SERVICE_IDENTITY_MS = 60 * 60_000;

interface BusMeta extends Meta {
  /** The gateway's signed caller assertion. */
  auth?: string;
  /** A process's signed service identity. */
  svc?: string;
}

type CallOptions = { meta?: BusMeta; parentCtx?: { meta?: BusMeta } } & Record<string, unknown>;

const unverified = (reason: string) => new ApiError(401, { message: "401 Unauthorized" }, "UNVERIFIED_CALLER", { reason });

/** The keys of a distributed process, from the configuration; a missing one stops the start. */
function keysOf(config: Config) {
  const need = (name: keyof Config) => {
    const value = config[name];
    if (typeof value !== "string" || !value.trim()) throw new Error(`${name} is required with a TRANSPORTER: every call on the bus is signed (README, "Security")`);
    return value;
  };
  const service = new Signer(readPrivateKey(need("SERVICE_SIGNING_KEY")));
  const gateway = config.CALLER_SIGNING_KEY ? new Signer(readPrivateKey(config.CALLER_SIGNING_KEY)) : undefined;
  const callerKeys = [...splitList(config.CALLER_KEYS ?? "").map(readPublicKey), ...(gateway ? [gateway.publicKey] : [])];
  if (!callerKeys.length) throw new Error("CALLER_KEYS (or, in a gateway, CALLER_SIGNING_KEY) is required with a TRANSPORTER: services verify the gateway's signature");
  return {
    service,
    gateway,
    callers: new Verifier<CallerAssertion>(callerKeys),
    services: new Verifier<ServiceAssertion>([...splitList(config.SERVICE_KEYS ?? "").map(readPublicKey), service.publicKey]),
  };
}

/** The gateway's signer of caller assertions, when this process is a gateway on a bus. */
let callerSigner: Signer | undefined;

/**
 * How long past a request's deadline its caller's assertion stays valid, so that the caller's
 * next requests carry the same one: signed once by the gateway and verified once by each service
 * (an Ed25519 signature and its check cost ~0.1 ms a request in every process of the path).
 */
export const CALLER_ASSERTION_REUSE_MS = 30_000;
const MINTED_MAX = 10_000;
const minted = new Map<string, { token: string; exp: number }>();

/**
 * Signs what the gateway authenticated, valid at least until `deadline` (the request's timeout):
 * the services behind it believe only this. An assertion of the same caller, token and group still
 * valid then is used again (only ever for a request the gateway has just authenticated: a revoked
 * token or a changed caller never reaches here, and an identity flush forgets them all). Without a
 * bus (one process) there is nothing to sign.
 */
export function signCaller(assertion: Omit<CallerAssertion, "exp">, deadline: number, now = Date.now()): string | undefined {
  if (!callerSigner) return undefined;
  const key = JSON.stringify([assertion.caller, assertion.tokenId ?? null, assertion.scimGroupId ?? null]);
  const held = minted.get(key);
  if (held && held.exp >= deadline) return held.token;
  const exp = deadline + CALLER_ASSERTION_REUSE_MS;
  const token = callerSigner.sign({ ...assertion, exp });
  if (minted.size >= MINTED_MAX) forgetExpiredAssertions(now);
  minted.set(key, { token, exp });
  return token;
}

function forgetExpiredAssertions(now: number) {
  for (const [key, { exp }] of minted) if (exp < now) minted.delete(key);
  if (minted.size >= MINTED_MAX) minted.clear();
}

/** Forgets every assertion signed so far (the gateway's identity flush): the next requests are signed anew. */
export function forgetCallerAssertions(): number {
  const n = minted.size;
  minted.clear();
  return n;
}

/**
 * The bus's gatekeeper, in every broker with a transporter. Outgoing: a call, emit or broadcast
 * that carries no signed identity gets this process's service identity. Incoming from another
 * node: an action runs only for a caller assertion signed by a gateway key or a service identity
 * signed by a service key, and `ctx.meta.caller` (and tokenId, scimGroupId) is set from the
 * assertion, whatever the packet said; an event without either is dropped. In one process nothing
 * crosses a bus, and nothing is checked.
 */
export function busAuthMiddleware(config: Config): Middleware | undefined {
  if (!config.TRANSPORTER) return undefined;
  const keys = keysOf(config);
  callerSigner = keys.gateway;
  let broker: ServiceBroker;
  let identity: { token: string; exp: number } | undefined;

  const serviceToken = () => {
    const now = Date.now();
    if (!identity || identity.exp - now < SERVICE_IDENTITY_MS / 4) {
      const services = broker.services.map((s) => s.name).filter((n) => !n.startsWith("$"));
      const exp = now + SERVICE_IDENTITY_MS;
      identity = { token: keys.service.sign({ service: services.join(",") || broker.nodeID, node: broker.nodeID, exp }), exp };
    }
    return identity.token;
  };

  const withIdentity = (opts: CallOptions = {}): CallOptions => {
    const meta = opts.meta ?? {};
    const parent = opts.parentCtx?.meta ?? {};
    if (meta.auth || meta.svc || parent.auth || parent.svc) return opts;
    return { ...opts, meta: { ...meta, svc: serviceToken() } };
  };

  const remote = (ctx: Context) => ctx.nodeID !== undefined && ctx.nodeID !== broker.nodeID;

  /** Sets who calls from what is signed; throws when nothing is. */
  function establish(ctx: Context<unknown, BusMeta>): void {
    const meta = ctx.meta;
    if (meta.auth !== undefined) {
      const asserted = keys.callers.verify(meta.auth);
      if (!asserted) throw unverified("the caller's signature is not a gateway's, or has expired");
      meta.caller = asserted.caller;
      if (asserted.tokenId !== undefined) meta.tokenId = asserted.tokenId;
      else delete meta.tokenId;
      if (asserted.scimGroupId !== undefined) meta.scimGroupId = asserted.scimGroupId;
      else delete meta.scimGroupId;
      return;
    }
    if (!keys.services.verify(meta.svc)) throw unverified("no signed caller or service identity");
    meta.caller = null;
    delete meta.tokenId;
    delete meta.scimGroupId;
  }

  return {
    name: "BusAuth",
    created(b: ServiceBroker) {
      broker = b;
    },
    call(next: (...args: unknown[]) => unknown) {
      return (actionName: string, params: unknown, opts?: CallOptions) => next(actionName, params, withIdentity(opts));
    },
    emit(next: (...args: unknown[]) => unknown) {
      return (event: string, payload: unknown, opts?: CallOptions) => next(event, payload, withIdentity(opts));
    },
    broadcast(next: (...args: unknown[]) => unknown) {
      return (event: string, payload: unknown, opts?: CallOptions) => next(event, payload, withIdentity(opts));
    },
    localAction(next: (ctx: Context) => unknown, action: { name?: string }) {
      return function verifiedCaller(ctx: Context<unknown, BusMeta>) {
        if (remote(ctx)) {
          try {
            establish(ctx);
          } catch (err) {
            broker.logger.warn({ action: action.name, from: ctx.nodeID, reason: (err as ApiError).data?.reason }, "refused a call without a verified caller");
            throw err;
          }
        }
        return next(ctx);
      };
    },
    localEvent(next: (ctx: Context) => unknown, event: { name?: string }) {
      return function verifiedSender(ctx: Context<unknown, BusMeta>) {
        if (remote(ctx) && !event.name?.startsWith("$")) {
          try {
            establish(ctx);
          } catch {
            broker.logger.warn({ event: event.name, from: ctx.nodeID }, "dropped an event without a verified sender");
            return undefined;
          }
        }
        return next(ctx);
      };
    },
  } as unknown as Middleware;
}
