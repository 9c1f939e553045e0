import { checkOutboundUrl, currentSettings, outboundPolicy, type Mailer } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { integrationDeliveries, integrations, type DeliveryRow } from "../db/schema";
import { describeEvent, MAIL_SLUG } from "./notifier.consumers";
import { postJson } from "./post";
import { activeIntegrationFor, branchSelected, projectFacts, type Caller } from "./targets";

/** Attempts before a delivery is given up as failed, and the pause after the n-th failure. */
export const MAX_ATTEMPTS = 4;
export const backoffMs = (attempts: number) => 10_000 * 2 ** (attempts - 1);
const TIMEOUT_MS = 10_000;
/** A claimed row is not claimed again for this long (a crashed sender's rows come back after it). */
const LEASE_SECONDS = 60;
const BATCH = 20;

/**
 * Claims due deliveries with FOR UPDATE SKIP LOCKED (replicas ticking together take disjoint rows),
 * leasing them in the same transaction, so the slow part — the HTTP call or
 * the mail — runs outside any transaction.
 */
async function claimDue(db: Db): Promise<DeliveryRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: integrationDeliveries.id })
      .from(integrationDeliveries)
      .where(and(inArray(integrationDeliveries.status, ["new", "pending"]), lte(integrationDeliveries.nextAttemptAt, sql`now()`)))
      .orderBy(asc(integrationDeliveries.id))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(integrationDeliveries)
      .set({ nextAttemptAt: sql`now() + make_interval(secs => ${LEASE_SECONDS})`, updatedAt: sql`now()` })
      .where(inArray(integrationDeliveries.id, due.map((r) => r.id)))
      .returning();
  });
}

type Outcome = { status: "delivered"; responseCode: number } | { status: "refused"; error: string } | { status: "retry"; responseCode?: number; error: string };

const FINAL_STATUSES = ["success", "failed", "canceled"];
/** notify_only_broken_pipelines (default true): only failed pipelines; otherwise every final status. */
const brokenOrWanted = (properties: Record<string, unknown>, status: string) =>
  FINAL_STATUSES.includes(status) && ((properties.notify_only_broken_pipelines ?? true) !== true || status === "failed");
/** recipients: comma- or space-separated addresses. */
const recipientsOf = (properties: Record<string, unknown>) => [...new Set(String(properties.recipients ?? "").split(/[\s,]+/).filter(Boolean))];

/**
 * A "new" row becomes "pending": the integration acting for the project (own or inherited), enabled
 * for the event kind and the branch, and the message built; null (the row goes) when none applies.
 * Runs outside any transaction: it asks namespaces and accounts.
 */
async function prepare(db: Db, broker: Caller, row: DeliveryRow): Promise<DeliveryRow | null> {
  const described = describeEvent(row.slug, row.eventName, row.payload);
  const project = described && (await projectFacts(broker, row.projectId));
  const integration = project && (await activeIntegrationFor(db, project, row.slug, described.kind));
  const applies =
    described &&
    project &&
    integration &&
    (described.pipelineStatus === undefined || brokenOrWanted(integration.properties, described.pipelineStatus)) &&
    (described.branch === undefined || (await branchSelected(broker, integration, project, described.branch)));
  if (!applies) {
    await db.delete(integrationDeliveries).where(eq(integrationDeliveries.id, row.id));
    return null;
  }
  const [author] = described.actorId === null ? [] : await broker.call<{ name: string }[], { ids: number[] }>("accounts.users.refs", { ids: [described.actorId] });
  const message: Record<string, unknown> = { ...described.build(project, author?.name ?? "Someone", row.occurredAt.toISOString()) };
  if (row.slug === MAIL_SLUG) message.to = recipientsOf(integration.properties);
  const [ready] = await db.update(integrationDeliveries).set({ status: "pending", integrationId: integration.id, message }).where(eq(integrationDeliveries.id, row.id)).returning();
  return ready;
}

async function send(db: Db, mailer: () => Mailer, row: DeliveryRow): Promise<Outcome> {
  const [integration] = row.integrationId === null ? [] : await db.select().from(integrations).where(eq(integrations.id, row.integrationId));
  if (!integration?.active) return { status: "refused", error: "Integration is no longer active" };
  if (integration.slug === "pipelines-email") {
    const mail = row.message as { to: string[]; subject: string; text: string };
    try {
      for (const to of mail.to) await mailer().send({ to, subject: mail.subject, text: mail.text });
      return { status: "delivered", responseCode: 250 };
    } catch (err) {
      return { status: "retry", error: (err as Error).message };
    }
  }
  const url = String(integration.properties.webhook ?? "");
  const verdict = await checkOutboundUrl(url, outboundPolicy(currentSettings()));
  if (!verdict.allowed) return { status: "refused", error: verdict.reason };
  try {
    const res = await postJson(url, row.message, verdict, TIMEOUT_MS);
    if (res.status >= 200 && res.status < 300) return { status: "delivered", responseCode: res.status };
    return { status: "retry", responseCode: res.status, error: `HTTP ${res.status}` };
  } catch (err) {
    return { status: "retry", error: (err as Error).message };
  }
}

async function record(db: Db, row: DeliveryRow, outcome: Outcome) {
  const now = new Date();
  if (outcome.status === "retry") {
    const exhausted = row.attempts >= MAX_ATTEMPTS;
    await db
      .update(integrationDeliveries)
      .set({ status: exhausted ? "failed" : "pending", responseCode: outcome.responseCode ?? null, error: outcome.error, nextAttemptAt: new Date(now.getTime() + backoffMs(row.attempts)), updatedAt: now })
      .where(eq(integrationDeliveries.id, row.id));
    return;
  }
  await db
    .update(integrationDeliveries)
    .set({ status: outcome.status, responseCode: outcome.status === "delivered" ? outcome.responseCode : null, error: outcome.status === "refused" ? outcome.error : null, deliveredAt: outcome.status === "delivered" ? now : null, updatedAt: now })
    .where(eq(integrationDeliveries.id, row.id));
}

/** One pass of the delivery worker; answers how many deliveries it attempted. */
export async function deliverDue(db: Db, broker: Caller, mailer: () => Mailer): Promise<number> {
  const claimed = await claimDue(db);
  let attempted = 0;
  for (const claimedRow of claimed) {
    const row = claimedRow.status === "new" ? await prepare(db, broker, claimedRow) : claimedRow;
    if (!row) continue;
    const [counted] = await db.update(integrationDeliveries).set({ attempts: sql`${integrationDeliveries.attempts} + 1` }).where(eq(integrationDeliveries.id, row.id)).returning();
    await record(db, counted, await send(db, mailer, counted));
    attempted++;
  }
  return attempted;
}
