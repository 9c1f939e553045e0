import { checkOutboundUrl, currentSettings, outboundPolicy, type Mailer } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { integrationDeliveries, integrations, type DeliveryRow } from "../db/schema";
import { postJson } from "./post";

/** Attempts before a delivery is given up as failed, and the pause after the n-th failure. */
export const MAX_ATTEMPTS = 4;
export const backoffMs = (attempts: number) => 10_000 * 2 ** (attempts - 1);
const TIMEOUT_MS = 10_000;
/** A claimed row is not claimed again for this long (a crashed sender's rows come back after it). */
const LEASE_SECONDS = 60;
const BATCH = 20;

/**
 * Claims due deliveries with FOR UPDATE SKIP LOCKED (replicas ticking together take disjoint rows),
 * counting the attempt and leasing them in the same statement, so the slow part — the HTTP call or
 * the mail — runs outside any transaction.
 */
async function claimDue(db: Db): Promise<DeliveryRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: integrationDeliveries.id })
      .from(integrationDeliveries)
      .where(and(eq(integrationDeliveries.status, "pending"), lte(integrationDeliveries.nextAttemptAt, sql`now()`)))
      .orderBy(asc(integrationDeliveries.id))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(integrationDeliveries)
      .set({ attempts: sql`${integrationDeliveries.attempts} + 1`, nextAttemptAt: sql`now() + make_interval(secs => ${LEASE_SECONDS})`, updatedAt: sql`now()` })
      .where(inArray(integrationDeliveries.id, due.map((r) => r.id)))
      .returning();
  });
}

type Outcome = { status: "delivered"; responseCode: number } | { status: "refused"; error: string } | { status: "retry"; responseCode?: number; error: string };

async function send(db: Db, mailer: () => Mailer, row: DeliveryRow): Promise<Outcome> {
  const [integration] = await db.select().from(integrations).where(eq(integrations.id, row.integrationId));
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
export async function deliverDue(db: Db, mailer: () => Mailer): Promise<number> {
  const rows = await claimDue(db);
  await Promise.all(rows.map(async (row) => record(db, row, await send(db, mailer, row))));
  return rows.length;
}
