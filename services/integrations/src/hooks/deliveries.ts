import { Accounts } from "@collab/accounts-contract";
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
import { describeHookEvent } from "./events";
import { executeHook } from "./execute";

/** What a webhook delivery row's message holds: the trigger flag and the JSON body. */
interface HookMessage {
  flag: string;
  data: Record<string, unknown>;
}

/** Group hooks are Premium and Ultimate (GitLab EE's GroupHook). */
export const groupHooksAvailable = () => loadConfig().LICENSE_TIER !== "free";

/**
 * Turns an event's fan-out row into one pending delivery per hook that takes it: the project's
 * hooks and its ancestor groups' (Premium+), with the trigger on, executable (GitLab skips disabled
 * hooks when an event happens) and, for pushes, matching the branch filter. The body is built once,
 * with the project and the acting user asked of namespaces and accounts (one call each). The rows
 * are written and the fan-out row removed in one transaction, under the claim.
 */
export async function fanOut(db: Db, broker: Caller, row: DeliveryRow, ownClaim: SQL | undefined): Promise<void> {
  const facts = describeHookEvent(row.eventName, row.payload);
  const [project] = facts ? await call(broker, Namespaces.projects.summaries, { ids: [facts.projectId] }) : [];
  let targets: WebHookRow[] = [];
  if (facts && project) {
    const owners = [eq(webHooks.projectId, project.id)];
    if (groupHooksAvailable() && project.group_ids.length) owners.push(inArray(webHooks.groupId, project.group_ids));
    const hooks = await db.select().from(webHooks).where(or(...owners)).orderBy(webHooks.id);
    targets = hooks.filter(
      (h) =>
        hookFlags(h.projectId !== null ? "project" : "group", h.events)[facts.flag] &&
        executable(h) &&
        (facts.branch === undefined || branchMatches(h.branchFilterStrategy, h.pushEventsBranchFilter, facts.branch)),
    );
  }
  const [user] = targets.length && facts?.actorId ? await call(broker, Accounts.users.refs, { ids: [facts.actorId] }) : [];
  await db.transaction(async (tx) => {
    const [mine] = await tx.delete(integrationDeliveries).where(ownClaim).returning({ id: integrationDeliveries.id });
    if (!mine || !targets.length || !facts || !project) return;
    const message: HookMessage = { flag: facts.flag, data: facts.build(project, user) };
    await tx
      .insert(integrationDeliveries)
      .values(targets.map((h) => ({ webHookId: h.id, slug: hookSlug(h.id), projectId: row.projectId, eventId: row.eventId, eventName: row.eventName, occurredAt: row.occurredAt, payload: row.payload, message: message as unknown as Record<string, unknown>, status: "pending" })))
      .onConflictDoNothing();
  });
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
  const run = await executeHook(db, keyring, hook, trigger, message.data, row.eventId, signal);
  if (run.category === "refused") return { status: "refused", error: run.error ?? "Refused" };
  if (run.category === "ok") return { status: "delivered", responseCode: run.status! };
  if (run.category === "failed") return { status: "failed", responseCode: run.status!, error: `HTTP ${run.status}` };
  const [after] = await db.select({ disabledUntil: webHooks.disabledUntil }).from(webHooks).where(and(eq(webHooks.id, hook.id)));
  return { status: "retry", responseCode: run.status ?? undefined, error: run.error ?? `HTTP ${run.status}`, notBefore: after?.disabledUntil ?? undefined };
}
