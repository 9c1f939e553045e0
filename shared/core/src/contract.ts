import type { ActionSchema, CallingOptions, Context, Middleware, ServiceBroker } from "moleculer";
import { z } from "zod";
import type { Readable } from "node:stream";
import type { Ctx } from "./meta";
import { isStream } from "./reply";

/**
 * Service contracts: what crosses the bus, declared once by the service that owns it and imported
 * by those who use it (`@collab/<service>/contract`). An action's entry carries its full name,
 * its input and output schemas and whether a caller may retry it; an event's entry its name and
 * payload schema. Calls go through `call()`, actions through `implement()`, consumers through the
 * producer's entry: a wrong name or shape is a compile error, not a 404 at run time.
 */

/** One action of a service's contract. Schemas are thunks: moleculer deep-clones action definitions. */
export interface ActionContract<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly kind: "action";
  /** The full action name, `<service>.<action>`. */
  readonly name: string;
  readonly input: () => I;
  readonly output: () => O;
  /** Safe to repeat (a read): callers retry it on another replica when one dies mid-request. */
  readonly idempotent: boolean;
}

/** One durable domain event of a service's contract (see @collab/db's outbox and consumers). */
export interface EventContract<P extends z.ZodType = z.ZodType> {
  readonly kind: "event";
  /** The event name, `<service>.<entity>.<what happened>`. */
  readonly name: string;
  readonly payload: () => P;
}

export type InputOf<A extends ActionContract> = z.input<ReturnType<A["input"]>>;
export type ParamsOf<A extends ActionContract> = z.output<ReturnType<A["input"]>>;
export type OutputOf<A extends ActionContract> = z.output<ReturnType<A["output"]>>;
export type PayloadOf<E extends EventContract> = z.output<ReturnType<E["payload"]>>;

const ACTION_NAME = /^[a-z][a-z-]*\.[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/;
/** `<service>.<entity>.<what happened>`; entity and event in snake_case (merge-requests.merge_request.approvals_reset). */
const EVENT_NAME = /^[a-z][a-z-]*\.[a-z][a-z_]*\.[a-z][a-z_]*$/;

/** Declares an action of a contract. Schemas are built once, on first use. */
export function actionContract<I extends z.ZodType, O extends z.ZodType>(name: string, def: { input: () => I; output: () => O; idempotent?: boolean }): ActionContract<I, O> {
  if (!ACTION_NAME.test(name)) throw new Error(`contract: "${name}" is not <service>.<action>`);
  return { kind: "action", name, input: once(def.input), output: once(def.output), idempotent: def.idempotent ?? false };
}

/** Declares a durable event of a contract. */
export function eventContract<P extends z.ZodType>(name: string, payload: () => P): EventContract<P> {
  if (!EVENT_NAME.test(name)) throw new Error(`contract: "${name}" is not <service>.<entity>.<event>`);
  return { kind: "event", name, payload: once(payload) };
}

function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** Who may call: an action's context (the caller travels along) or, outside any action, the broker. */
type Caller = Pick<Context, "call"> | Pick<ServiceBroker, "call">;

/**
 * Calls an action of another service through its contract entry: the input and the answer are
 * typed by the entry's schemas. With a context, the caller (ctx.meta) travels with the call.
 */
export function call<A extends ActionContract>(via: Caller | Ctx<unknown>, action: A, params: InputOf<A>, opts?: CallingOptions): Promise<OutputOf<A>> {
  return (via as Pick<ServiceBroker, "call">).call(action.name, params, opts) as Promise<OutputOf<A>>;
}

/** An action schema that implements a contract entry (see `implement`). */
export interface ImplementedAction extends ActionSchema {
  contract: ActionContract;
}

/**
 * The action of a contract entry: the entry's input schema validates the params (ZodInputMiddleware),
 * the handler's answer must have the entry's output type (a mismatch fails tsc), and an idempotent
 * entry is retried by moleculer on a dead replica.
 */
export function implement<A extends ActionContract>(
  contract: A,
  handler: (ctx: Ctx<ParamsOf<A>>) => Promise<OutputOf<A>> | OutputOf<A>,
  opts: { visibility?: ActionSchema["visibility"] } = {},
): ImplementedAction {
  return {
    contract,
    input: contract.input,
    output: contract.output,
    visibility: opts.visibility ?? "public",
    ...(contract.idempotent ? { retryPolicy: { enabled: true } } : {}),
    handler: handler as ActionSchema["handler"],
  };
}

/**
 * The actions map of service `service` from its implemented contract entries, keyed by the name
 * each entry gives. An entry of another service, or one name implemented twice, throws.
 */
export function actionsOf(service: string, implemented: ImplementedAction[]): Record<string, ActionSchema> {
  const out: Record<string, ActionSchema> = {};
  for (const action of implemented) {
    const prefix = `${service}.`;
    if (!action.contract.name.startsWith(prefix)) throw new Error(`${service}: implements ${action.contract.name}, another service's action`);
    const key = action.contract.name.slice(prefix.length);
    if (key in out) throw new Error(`${service}: action ${action.contract.name} is implemented twice`);
    out[key] = action;
  }
  return out;
}

/**
 * Merges a service's action maps; a name in two of them throws (object spread would let the last
 * one win silently).
 */
export function mergeActions<A>(service: string, maps: Record<string, A>[]): Record<string, A> {
  const out: Record<string, A> = {};
  for (const map of maps) {
    for (const [key, action] of Object.entries(map)) {
      if (!action) continue;
      if (key in out) throw new Error(`${service}: action ${service}.${key} is defined twice`);
      out[key] = action;
    }
  }
  return out;
}

declare const announced: unique symbol;

/**
 * An event with its payload as its producer announces it (@collab/db's outbox writes these):
 * made by `announce` only, so every event written goes through its contract entry.
 */
export type Announced = readonly [name: string, payload: object] & { readonly [announced]: true };

/** The payload of an event as its producer announces it, checked against the entry's type. */
export const announce = <E extends EventContract>(event: E, payload: z.input<ReturnType<E["payload"]>>): Announced => [event.name, payload as object] as unknown as Announced;

/**
 * A consumer's part of event payloads: the schema of `keys` picked from each entry's payload
 * schema (zod's pick), for a consumer that reads only those (@collab/db's `on(event, select,
 * handler)`). One selector serves several entries whose schemas have those keys; a key an entry's
 * schema lacks fails tsc.
 */
export const pickFields =
  <const K extends string>(...keys: K[]) =>
  <S extends z.ZodObject>(schema: S & { shape: Record<K, z.ZodType> }): z.ZodObject<Pick<S["shape"], K>> =>
    schema.pick(Object.fromEntries(keys.map((k) => [k, true])) as never) as never;

/**
 * One moleculer broadcast of a contract: a fire-and-forget notice to every process's `events:`
 * handlers (caches, settings), neither stored nor redelivered. Unlike a durable event (an
 * EventContract) it has no outbox, no consumer group and no dead letters; the kinds differ so that
 * one cannot be announced or consumed as the other.
 */
export interface BroadcastContract<P extends z.ZodType = z.ZodType> {
  readonly kind: "broadcast";
  /** The moleculer event name, `<service>.<entity>.<what happened>`. */
  readonly name: string;
  readonly payload: () => P;
}

/** Declares a broadcast of a contract (see BroadcastContract). */
export function broadcastContract<P extends z.ZodType>(name: string, payload: () => P): BroadcastContract<P> {
  if (!EVENT_NAME.test(name)) throw new Error(`contract: "${name}" is not <service>.<entity>.<event>`);
  return { kind: "broadcast", name, payload: once(payload) };
}

export type BroadcastPayloadOf<B extends BroadcastContract> = z.output<ReturnType<B["payload"]>>;

/** Who may broadcast: an action's context (the caller's meta travels along) or the broker. */
type Broadcaster = Pick<Context, "broadcast"> | Pick<ServiceBroker, "broadcast">;

/**
 * Broadcasts a contract entry to every process, the payload checked against the entry's type (not
 * parsed: handlers get what moleculer delivers, as with a plain broadcast).
 */
export function broadcast<B extends BroadcastContract>(via: Broadcaster | Ctx<unknown>, entry: B, payload: z.input<ReturnType<B["payload"]>>, opts?: Record<string, unknown>): Promise<void> {
  return (via as Pick<ServiceBroker, "broadcast">).broadcast(entry.name, payload, opts) as Promise<void>;
}

declare module "moleculer" {
  interface ActionSchema {
    /** Answer schema as a thunk (see `input`): checked by OutputCheckMiddleware in tests, published in OpenAPI. */
    output?: () => z.ZodType;
  }
}

/**
 * A failed check of an action's answer against its contract: a programming error, raised in tests
 * (CHECK_ACTION_OUTPUTS) so that a contract and its implementation cannot drift apart.
 */
export class ContractViolation extends Error {
  constructor(action: string, issues: z.core.$ZodIssue[]) {
    super(`${action} answered outside its contract: ${issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
    this.name = "ContractViolation";
  }
}

/**
 * Validates every local action's answer against its contract's output schema. On in tests only
 * (CHECK_ACTION_OUTPUTS=1): in production the types already hold, and parsing every answer twice
 * would cost what the request path is meant to save.
 */
export const OutputCheckMiddleware: Middleware = {
  name: "OutputCheck",
  localAction(next: (ctx: Context) => Promise<unknown>, action: { name?: string; output?: () => z.ZodType }) {
    if (typeof action.output !== "function") return next;
    const schema = action.output();
    return async function checkOutput(ctx: Context) {
      const answer = await next(ctx);
      const result = schema.safeParse(answer);
      if (!result.success) throw new ContractViolation(action.name ?? "an action", result.error.issues);
      return answer;
    };
  },
};

/** The full names of a service schema's actions (a `name` on the definition overrides its key). */
function actionNamesOf(schema: { name: string; actions?: Record<string, unknown> }): string[] {
  return Object.entries(schema.actions ?? {})
    .filter(([, def]) => def)
    .map(([key, def]) => `${schema.name}.${typeof def === "object" && typeof (def as { name?: unknown }).name === "string" ? (def as { name: string }).name : key}`);
}

/**
 * Refuses a second local action of one name (two services of one name, or a mixin's): moleculer
 * would balance between them silently. Compared with the services this broker already has.
 */
export const UniqueActionNamesMiddleware = {
  name: "UniqueActionNames",
  serviceCreating(service: { broker: ServiceBroker }, schema: { name: string; actions?: Record<string, unknown> }) {
    const taken = new Set(service.broker.services.flatMap((s) => actionNamesOf(s.schema as { name: string; actions?: Record<string, unknown> })));
    for (const name of actionNamesOf(schema)) if (taken.has(name)) throw new Error(`action ${name} is defined twice in this broker`);
  },
} as Middleware;

/** What travels for one domain event (as @collab/db's outbox writes it). */
export const EventEnvelopeSchema = z.object({ id: z.string().min(1), name: z.string().min(1), occurredAt: z.string(), payload: z.unknown() });

/** The actions every domain service has (defineService adds them): readiness, and a dead letter's replay. */
export const serviceContract = (service: string) => ({
  /** Readiness of one instance: its database answers. */
  health: actionContract(`${service}.health`, { input: () => z.object({}), output: () => z.object({ status: z.literal("ok") }), idempotent: true }),
  /** Applies a dead letter of the service's consumers once more; fails (and the letter stays) if it still cannot. */
  replayEvent: actionContract(`${service}.replayEvent`, { input: () => z.object({ event: EventEnvelopeSchema }), output: () => z.object({ replayed: z.literal(true) }) }),
});

/** The answer of a paginated list action: `page(items, total, params)` (reply.ts), as the gateway reads it. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ $page: z.literal(true), items: z.array(item), total: z.number().int(), page: z.number().int(), perPage: z.number().int(), withoutCount: z.literal(true).optional() });

/**
 * A Reply answer (`reply(status, body)`, reply.ts): the body with a status other than the route's
 * default. With `status`, that very one (documented as such in OpenAPI).
 */
export const replyOf = <T extends z.ZodType>(body: T, status?: number) =>
  // Checked against the literal at run time; typed as a number, as reply() builds it.
  z.object({ $reply: z.literal(true), status: (status === undefined ? z.number().int() : z.literal(status)) as z.ZodNumber, body, headers: z.record(z.string(), z.string()).optional() });

/** A keyset page (`cursorPage(items, next)`, reply.ts): the items, the next page's query or null. */
export const cursorPageOf = <T extends z.ZodType>(item: T) => z.object({ $cursorPage: z.literal(true), items: z.array(item), next: z.record(z.string(), z.string()).nullable() });

/**
 * A download (`fileResponse`, reply.ts): a stream of bytes, described in ctx.meta.$file. On the
 * wire (OpenAPI) a binary body.
 */
export const fileOf = () => z.custom<Readable>(isStream, { message: "expected a stream" }).meta({ type: "string", contentMediaType: "application/octet-stream" });

/** No body (the route answers 204, or the action answers nothing). */
export const noContent = () => z.union([z.undefined(), z.null()]);

/** Every action entry of a contract (nested groups walked), e.g. to document or mount them. */
export function actionEntriesOf(contract: object): ActionContract[] {
  const out: ActionContract[] = [];
  const walk = (node: unknown, depth: number) => {
    if (!node || typeof node !== "object" || depth > 6) return;
    if ((node as ActionContract).kind === "action") out.push(node as ActionContract);
    else if (!("kind" in node)) for (const child of Object.values(node)) walk(child, depth + 1);
  };
  walk(contract, 0);
  return out;
}

/** A bus call by name, as workers take one injected (their tests hand them a fake). */
export type BusCall = <T>(action: string, params: object) => Promise<T>;

/** Such an injected bus as `call()` takes it: `call(viaBus(bus), Service.group.action, input)`. */
export const viaBus = (bus: BusCall): Pick<ServiceBroker, "call"> => ({
  call: ((action: string, params?: object) => bus(action, params ?? {})) as ServiceBroker["call"],
});
