import { call, loadConfig, type Keyring } from "@collab/core";
import type { Db } from "@collab/db";
import { hookFlags, triggerByFlag } from "@collab/integrations-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import { integrationDeliveries, webHooks, type DeliveryRow, type WebHookRow } from "../db/schema";
import type { Caller } from "../deliveries/targets";
import { executable, permanentlyDisabled, temporarilyDisabled } from "./auto-disabling";
import { branchMatches } from "./branch-filter";
import { hookSlug } from "./consumers";
import { enrich, refsWithActor } from "./enrich";
import { describeGroupHookEvent, describeHookEvent } from "./events";
import { executeHook, idempotencyKeyOf } from "./execute";

/** What a webhook delivery row's message holds: the trigger flag and the JSON body. */
interface HookMessage {
  flag: string;
  data: Record<string, unknown>;
}

/** Group hooks are Premium and Ultimate (GitLab EE's GroupHook). */
export const groupHooksAvailable = () => loadConfig().LICENSE_TIER !== "free";

/**
 * Turns an event's fan-out row into one pending delivery per hook that takes it: for a project's
 * event the project's hooks and its ancestor groups' (Premium+), for a group's event (members) the
 * group's and its ancestors'; with the trigger on, executable (GitLab skips disabled hooks when an
 * event happens) and, for pushes, matching the branch filter. The body is built once, with the
 * project or group and the user asked of namespaces and accounts. The rows are written and the
 * fan-out row removed in one transaction, under the claim.
 */
export async function fanOut(db: Db, broker: Caller, row: DeliveryRow, ownClaim: SQL | undefined): Promise<void> {
  const prepared = row.projectId !== null ? await projectEvent(db, broker, row) : await groupEvent(db, broker, row);
  await db.transaction(async (tx) => {
    const [mine] = await tx.delete(integrationDeliveries).where(ownClaim).returning({ id: integrationDeliveries.id });
    if (!mine || !prepared?.targets.length) return;
    const message: HookMessage = { flag: prepared.flag, data: prepared.data };
    await tx
      .insert(integrationDeliveries)
      .values(
        prepared.targets.map((h) => ({
          webHookId: h.id,
          slug: hookSlug(h.id),
          projectId: row.projectId,
          eventId: row.eventId,
          eventName: row.eventName,
          occurredAt: row.occurredAt,
          payload: row.payload,
          message: message as unknown as Record<string, unknown>,
          status: "pending",
        })),
      )
      .onConflictDoNothing();
  });
}

interface Prepared {
  targets: WebHookRow[];
  flag: string;
  data: Record<string, unknown>;
}

const takes = (h: WebHookRow, flag: string) => hookFlags(h.projectId !== null ? "project" : "group", h.events)[flag] && executable(h);

async function projectEvent(db: Db, broker: Caller, row: DeliveryRow): Promise<Prepared | null> {
  const facts = describeHookEvent(row.eventName, row.payload);
  const [project] = facts ? await call(broker, Namespaces.projects.summaries, { ids: [facts.projectId] }) : [];
  if (!facts || !project) return null;
  const owners = [eq(webHooks.projectId, project.id)];
  if (groupHooksAvailable() && project.group_ids.length) owners.push(inArray(webHooks.groupId, project.group_ids));
  const hooks = await db.select().from(webHooks).where(or(...owners)).orderBy(webHooks.id);
  const targets = hooks.filter((h) => takes(h, facts.flag) && (facts.branch === undefined || branchMatches(h.branchFilterStrategy, h.pushEventsBranchFilter, facts.branch)));
  if (!targets.length) return null;
  // What the body shows of the event's objects, read once for all the hooks.
  return { targets, flag: facts.flag, data: facts.build(project, await enrich(broker, refsWithActor(facts.refs, facts.actorId))) };
}

/** Deepest group nesting walked up from a group's event (GitLab allows 20 levels). */
const MAX_DEPTH = 21;

async function groupEvent(db: Db, broker: Caller, row: DeliveryRow): Promise<Prepared | null> {
  const facts = describeGroupHookEvent(row.eventName, row.payload);
  if (!facts || !groupHooksAvailable()) return null;
  // The group and its ancestors, closest first (a walk up parent ids: member events are rare).
  type Group = { id: number; name: string; full_path: string; parent_id: number | null };
  const chain: Group[] = [];
  for (let id: number | null = facts.groupId; id !== null && chain.length < MAX_DEPTH; ) {
    const group: Group | null = await call(broker, Namespaces.provisioning.group, { group: String(id) });
    if (!group) break;
    chain.push(group);
    id = group.parent_id;
  }
  if (!chain.length) return null;
  const hooks = await db.select().from(webHooks).where(inArray(webHooks.groupId, chain.map((g) => g.id))).orderBy(webHooks.id);
  const targets = hooks.filter((h) => takes(h, facts.flag));
  if (!targets.length) return null;
  return { targets, flag: facts.flag, data: facts.build(chain[0], await enrich(broker, facts.refs)) };
}

/** When a webhook delivery must wait for its temporarily disabled hook: that time (null: go on). */
export async function hookHeldUntil(db: Db, row: DeliveryRow): Promise<Date | null> {
  const [hook] = await db.select().from(webHooks).where(eq(webHooks.id, row.webHookId!));
  return hook && temporarilyDisabled(hook) ? hook.disabledUntil : null;
}

export type HookOutcome =
  | { status: "delivered"; responseCode: number }
  | { status: "refused"; error: string }
  | { status: "failed"; responseCode: number; error: string }
  | { status: "retry"; responseCode?: number; error: string; notBefore?: Date };

/** Sends one webhook delivery: a 2xx delivers, a 4xx fails it (not retried), a 5xx or no answer retries it once the hook's back-off is over. */
export async function sendToHook(db: Db, keyring: Keyring, row: DeliveryRow, signal: AbortSignal): Promise<HookOutcome> {
  const [hook] = await db.select().from(webHooks).where(eq(webHooks.id, row.webHookId!));
  if (!hook) return { status: "refused", error: "Hook was deleted" };
  if (permanentlyDisabled(hook)) return { status: "refused", error: "Hook is disabled" };
  const message = row.message as unknown as HookMessage;
  const trigger = triggerByFlag(message.flag);
  if (!trigger) return { status: "refused", error: `Unknown trigger ${message.flag}` };
  const run = await executeHook(db, keyring, hook, trigger, message.data, { eventUuid: row.eventId, idempotencyKey: idempotencyKeyOf(row.eventId, hook.id) }, signal);
  if (run.category === "refused") return { status: "refused", error: run.error ?? "Refused" };
  if (run.category === "ok") return { status: "delivered", responseCode: run.status! };
  if (run.category === "failed") return { status: "failed", responseCode: run.status!, error: `HTTP ${run.status}` };
  const [after] = await db.select({ disabledUntil: webHooks.disabledUntil }).from(webHooks).where(and(eq(webHooks.id, hook.id)));
  return { status: "retry", responseCode: run.status ?? undefined, error: run.error ?? `HTTP ${run.status}`, notBefore: after?.disabledUntil ?? undefined };
}
