import { Accounts } from "@collab/accounts-contract";
import { call, checkOutboundUrl, currentSettings, externalUrl, loadConfig, outboundPolicy, type Keyring, type Mailer } from "@collab/core";
import { eventFlags } from "@collab/integrations-contract";
import type { Db } from "@collab/db";
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { integrationDeliveries, integrations, type DeliveryRow, type IntegrationRow } from "../db/schema";
import { secretOf } from "../domain/secrets";
import { describeEvent } from "./notifier.consumers";
import { canSendFrom, isMailSlug, PUSH_MAIL_SLUG, recipientsOf, type MailMessage } from "./mails";
import { applicable, authHeaders, clientUrl, deliverToJira, hasWork, JIRA_SLUG, JiraError, type JiraCall, type JiraMessage } from "./jira";
import { ciActsOn, ciRequest, isCiSlug, type CiMessage } from "./ci";
import { chatRequest, type ChatRequest } from "./chat-message";
import { postJson, sendRequest } from "./post";
import { activeIntegrationFor, branchSelected, projectFacts, type Caller } from "./targets";
import { WEBHOOKS_SLUG } from "../hooks/consumers";
import { fanOut, hookHeldUntil, sendToHook, type HookOutcome } from "../hooks/deliveries";
import { enrich } from "../hooks/enrich";
import { labelsNotified } from "../hooks/label-filter";

/** Attempts before a delivery is given up as failed, and the pause after the n-th failure (`base`: INTEGRATIONS_RETRY_BACKOFF_MS). */
export const MAX_ATTEMPTS = 4;
export const backoffMs = (attempts: number, base = 10_000) => base * 2 ** (attempts - 1);
const TIMEOUT_MS = 10_000;
/** How long a claim holds a delivery: a crashed sender's delivery comes back after it. */
export const LEASE_MS = 60_000;
/** Deliveries one pass handles at most (the timer comes back for the rest). */
const PER_PASS = 20;

/*
 * A delivery is never sent by two replicas while the first is still working on it:
 * - A pass claims one delivery at a time (FOR UPDATE SKIP LOCKED, leased in the same UPDATE), never a
 *   batch whose later rows would wait, leased, behind slow sends: a lease only ever covers work in
 *   progress, and the other replicas take the rest meanwhile.
 * - The time a delivery takes is not bounded (an SMTP exchange, a webhook answering slowly byte by
 *   byte; nodemailer cannot cancel a send), so no lease length is safe by itself: the lease is
 *   renewed (a heartbeat) every quarter lease while the worker is on the delivery, and lapses only
 *   when the worker is gone.
 * - Every write is made under the claim (`claims`, bumped by each claim), so a worker that lost its
 *   claim changes nothing; and once the heartbeat could not renew for three quarters of a lease (the
 *   database out of reach), or found the claim gone, the webhook call is aborted while the lease is
 *   still the worker's. A mail already handed to the SMTP server in that case is the one send left to
 *   finish: it cannot be recalled.
 */

/**
 * Webhooks are sent in order: a hook's delivery waits while an earlier one of the same hook is not
 * done (sent, or being retried), and an event's fan-out row while an earlier one of its project is.
 */
const inTurn = sql`NOT EXISTS (SELECT 1 FROM integrations.integration_deliveries e
  WHERE e.id < ${integrationDeliveries.id} AND e.status IN ('new', 'pending')
    AND ((${integrationDeliveries.webHookId} IS NOT NULL AND e.web_hook_id = ${integrationDeliveries.webHookId})
      OR (${integrationDeliveries.slug} = ${WEBHOOKS_SLUG} AND e.slug = ${WEBHOOKS_SLUG} AND e.project_id = ${integrationDeliveries.projectId})))`;

/** Claims the next due delivery: bumps its claim number and leases it. */
async function claimNext(db: Db, leaseMs: number): Promise<DeliveryRow | undefined> {
  const t = integrationDeliveries;
  const next = db
    .select({ id: t.id })
    .from(t)
    .where(and(inArray(t.status, ["new", "pending"]), lte(t.nextAttemptAt, sql`now()`), inTurn))
    .orderBy(asc(t.id))
    .limit(1)
    .for("update", { skipLocked: true });
  const [row] = await db
    .update(t)
    .set({ claims: sql`${t.claims} + 1`, nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1000})`, updatedAt: sql`now()` })
    .where(inArray(t.id, next))
    .returning();
  return row;
}

/** The row as this claim left it: writes under it change nothing once another claim took the row. */
const ownClaim = (row: DeliveryRow) => and(eq(integrationDeliveries.id, row.id), eq(integrationDeliveries.claims, row.claims));

/**
 * Holds a claim's lease while the worker is on its delivery (see above). `since` is the local time
 * before the claim, so the local view of the lease never ends after the database's.
 */
function holdLease(db: Db, row: DeliveryRow, leaseMs: number, since: number): { signal: AbortSignal; release: () => void } {
  const lost = new AbortController();
  let heldUntil = since + leaseMs;
  let renewing = false;
  const timer = setInterval(() => {
    if (Date.now() + leaseMs / 4 >= heldUntil) return lost.abort(new Error("the delivery's lease could not be renewed"));
    if (renewing) return;
    renewing = true;
    const sentAt = Date.now();
    db.update(integrationDeliveries)
      .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
      .where(and(ownClaim(row), inArray(integrationDeliveries.status, ["new", "pending"])))
      .returning({ id: integrationDeliveries.id })
      .then(
        (held) => {
          if (held.length) heldUntil = sentAt + leaseMs;
          else lost.abort(new Error("the delivery was claimed again"));
        },
        () => undefined, // the next beat tries again, until the lease is too short to go on
      )
      .finally(() => (renewing = false));
  }, leaseMs / 4);
  timer.unref();
  return { signal: lost.signal, release: () => clearInterval(timer) };
}

type Outcome = { status: "delivered"; responseCode: number } | { status: "refused"; error: string } | { status: "retry"; responseCode?: number; error: string } | HookOutcome;

/** notify_for_pipeline? (GitLab's): failed pipelines; successful ones unless notify_only_broken_pipelines (default true); no other status. */
const brokenOrWanted = (properties: Record<string, unknown>, status: string) => status === "failed" || (status === "success" && properties.notify_only_broken_pipelines === false);

/**
 * A "new" row becomes "pending": the integration acting for the project (own or inherited), enabled
 * for the event kind and the branch, and the message built; null (the row goes) when none applies.
 * Runs outside any transaction: it asks namespaces and accounts.
 */
async function prepare(db: Db, broker: Caller, row: DeliveryRow): Promise<DeliveryRow | null> {
  const described = describeEvent(row.slug, row.eventName, row.payload);
  const project = described && row.projectId !== null && (await projectFacts(broker, row.projectId));
  const integration = project && (await activeIntegrationFor(db, project, row.slug, described.kind));
  const applies =
    described &&
    project &&
    integration &&
    (described.pipelineStatus === undefined || brokenOrWanted(integration.properties, described.pipelineStatus)) &&
    (described.branch === undefined || (await branchSelected(broker, integration, project, described.branch))) &&
    (await labelsNotified(broker, integration.properties, described.kind, row.eventName, row.payload));
  if (!applies) {
    await db.delete(integrationDeliveries).where(ownClaim(row));
    return null;
  }
  const [author] = described.actorId === null ? [] : await call(broker, Accounts.users.refs, { ids: [described.actorId] });
  // A build server's message is the webhook's body: the objects it shows are read as for hooks.
  const enriched = described.refs ? await enrich(broker, described.refs) : undefined;
  let message: Record<string, unknown> = { ...described.build(project, author?.name ?? "Someone", row.occurredAt.toISOString(), author, integration.properties, enriched) };
  if (row.slug === JIRA_SLUG) message = { ...applicable(message as unknown as JiraMessage, eventFlags(integration.events), integration.properties) };
  const acts = isCiSlug(row.slug) ? ciActsOn(row.slug, (message as unknown as CiMessage).data) : row.slug === JIRA_SLUG ? hasWork(message as unknown as JiraMessage) : true;
  if (!acts) {
    await db.delete(integrationDeliveries).where(ownClaim(row));
    return null;
  }
  if (isMailSlug(row.slug)) {
    message.to = recipientsOf(integration.properties);
    if (row.slug === PUSH_MAIL_SLUG && integration.properties.send_from_committer_email === true && author) await sendFromCommitter(broker, message as unknown as MailMessage, author.id);
  }
  const [ready] = await db.update(integrationDeliveries).set({ status: "pending", integrationId: integration.id, message }).where(ownClaim(row)).returning();
  return ready ?? null;
}

/**
 * send_from_committer_email: the mail comes from the pusher's own address, and replies go to it,
 * when it is in the instance's domain (GitLab's can_send_from_user_email?).
 */
async function sendFromCommitter(broker: Caller, mail: MailMessage, userId: number) {
  const [details] = await call(broker, Accounts.users.memberDetails, { ids: [userId] });
  if (!details || !canSendFrom(details.email, new URL(externalUrl()).hostname)) return;
  mail.from = { name: mail.from?.name ?? details.name, address: details.email };
  mail.replyTo = details.email;
}

/** A mail to each recipient alone; an SMTP refusal is retried (the recipients already served are mailed again then). */
async function sendMails(mailer: () => Mailer, mail: MailMessage, signal: AbortSignal): Promise<Outcome> {
  try {
    for (const to of mail.to) {
      signal.throwIfAborted();
      await mailer().send({ to, subject: mail.subject, text: mail.text, html: mail.html, from: mail.from, replyTo: mail.replyTo, headers: mail.headers });
    }
    return { status: "delivered", responseCode: 250 };
  } catch (err) {
    return { status: "retry", error: (err as Error).message };
  }
}

/**
 * Jira's REST calls of one delivery (deliveries/jira.ts), each through the outbound guard, with the
 * integration's credentials. A call answered 5xx, 401 or the like fails the delivery, retried as a
 * whole: what was done is found done the next time (the comment and link are looked for first).
 */
async function sendToJira(integration: IntegrationRow, message: JiraMessage, keyring: Keyring, signal: AbortSignal): Promise<Outcome> {
  let headers: Record<string, string>;
  try {
    headers = { ...authHeaders(integration.properties, secretOf(integration, "password", keyring)), accept: "application/json" };
  } catch (err) {
    return { status: "retry", error: (err as Error).message };
  }
  const base = clientUrl(integration.properties);
  let lastStatus = 0;
  let refused: string | undefined;
  const jiraCall: JiraCall = async (method, path, body) => {
    const url = `${base}${path}`;
    const verdict = await checkOutboundUrl(url, outboundPolicy(currentSettings()));
    if (!verdict.allowed) {
      refused = verdict.reason;
      throw new Error(verdict.reason);
    }
    const request = { method: method === "PUT" ? ("POST" as const) : method, ...(body === undefined ? {} : { body: { contentType: "application/json", data: JSON.stringify(body) } }) };
    const res = await sendRequest(url, request, verdict, TIMEOUT_MS, signal, { headers, method: method === "PUT" ? "PUT" : undefined, keepBodyBytes: 1 << 20 });
    lastStatus = res.status;
    let parsed: unknown = null;
    try {
      parsed = res.body ? JSON.parse(res.body) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed };
  };
  try {
    await deliverToJira(jiraCall, integration.properties, integration.events.comment_on_event_enabled !== false, message);
    return { status: "delivered", responseCode: lastStatus };
  } catch (err) {
    if (refused) return { status: "refused", error: refused };
    return { status: "retry", ...(err instanceof JiraError && err.status ? { responseCode: err.status } : {}), error: (err as Error).message };
  }
}

async function send(db: Db, mailer: () => Mailer, keyring: Keyring, row: DeliveryRow, signal: AbortSignal): Promise<Outcome> {
  const [integration] = row.integrationId === null ? [] : await db.select().from(integrations).where(eq(integrations.id, row.integrationId));
  if (!integration?.active) return { status: "refused", error: "Integration is no longer active" };
  if (isMailSlug(integration.slug)) return sendMails(mailer, row.message as unknown as MailMessage, signal);
  if (integration.slug === JIRA_SLUG) return sendToJira(integration, row.message as unknown as JiraMessage, keyring, signal);
  if (isCiSlug(integration.slug)) return triggerBuild(integration, row.message as unknown as CiMessage, keyring, signal);
  let request: ChatRequest;
  try {
    request = chatRequest(integration.slug, integration.properties, (name) => secretOf(integration, name, keyring), row.message ?? {}, row.id);
  } catch (err) {
    // Sealed with a key no longer in the ring: retried, in case the keyring is being fixed.
    return { status: "retry", error: (err as Error).message };
  }
  const verdict = await checkOutboundUrl(request.url, outboundPolicy(currentSettings()));
  if (!verdict.allowed) return { status: "refused", error: verdict.reason };
  try {
    const res = await postJson(request.url, row.message, verdict, TIMEOUT_MS, signal, { method: request.method, headers: request.headers });
    if (res.status >= 200 && res.status < 300) return { status: "delivered", responseCode: res.status };
    return { status: "retry", responseCode: res.status, error: `HTTP ${res.status}` };
  } catch (err) {
    return { status: "retry", error: (err as Error).message };
  }
}

/** A build server's trigger (deliveries/ci.ts) through the outbound guard; a non-2xx answer is retried. */
async function triggerBuild(integration: IntegrationRow, message: CiMessage, keyring: Keyring, signal: AbortSignal): Promise<Outcome> {
  if (!isCiSlug(integration.slug)) throw new Error(`not a build server: ${integration.slug}`);
  let request;
  try {
    request = ciRequest(integration.slug, integration.properties, (name) => secretOf(integration, name, keyring), message);
  } catch (err) {
    return { status: "retry", error: (err as Error).message };
  }
  const verdict = await checkOutboundUrl(request.url, outboundPolicy(currentSettings()));
  if (!verdict.allowed) return { status: "refused", error: verdict.reason };
  try {
    const res = await sendRequest(request.url, request, verdict, TIMEOUT_MS, signal, { headers: request.headers, verifyTls: request.verifyTls });
    if (res.status >= 200 && res.status < 300) return { status: "delivered", responseCode: res.status };
    return { status: "retry", responseCode: res.status, error: `HTTP ${res.status}` };
  } catch (err) {
    return { status: "retry", error: (err as Error).message };
  }
}

/** Records an attempt's outcome and how long it took (seconds, as web_hook_logs.execution_duration). */
async function record(db: Db, row: DeliveryRow, outcome: Outcome, executionDuration: number) {
  const now = new Date();
  if (outcome.status === "retry") {
    const exhausted = row.attempts >= MAX_ATTEMPTS;
    const backoff = new Date(now.getTime() + backoffMs(row.attempts, loadConfig().INTEGRATIONS_RETRY_BACKOFF_MS));
    const notBefore = "notBefore" in outcome && outcome.notBefore && outcome.notBefore > backoff ? outcome.notBefore : backoff;
    await db
      .update(integrationDeliveries)
      .set({ status: exhausted ? "failed" : "pending", responseCode: outcome.responseCode ?? null, error: outcome.error, nextAttemptAt: notBefore, executionDuration, updatedAt: now })
      .where(ownClaim(row));
    return;
  }
  await db
    .update(integrationDeliveries)
    .set({
      status: outcome.status,
      responseCode: outcome.status === "refused" ? null : outcome.responseCode,
      error: outcome.status === "delivered" ? null : outcome.error,
      deliveredAt: outcome.status === "delivered" ? now : null,
      executionDuration,
      updatedAt: now,
    })
    .where(ownClaim(row));
}

/** Prepares (a "new" row), sends and records one claimed delivery; false when there was nothing to send or the claim was lost. */
async function deliver(db: Db, broker: Caller, mailer: () => Mailer, keyring: Keyring, claimed: DeliveryRow, lease: AbortSignal): Promise<boolean> {
  if (claimed.slug === WEBHOOKS_SLUG) {
    await fanOut(db, broker, claimed, ownClaim(claimed));
    return false;
  }
  if (claimed.webHookId !== null) {
    // A temporarily disabled hook's delivery waits for it, without counting an attempt.
    const heldUntil = await hookHeldUntil(db, claimed);
    if (heldUntil) {
      await db.update(integrationDeliveries).set({ nextAttemptAt: heldUntil }).where(ownClaim(claimed));
      return false;
    }
  }
  const row = claimed.status === "new" ? await prepare(db, broker, claimed) : claimed;
  if (!row || lease.aborted) return false;
  const [counted] = await db.update(integrationDeliveries).set({ attempts: sql`${integrationDeliveries.attempts} + 1` }).where(ownClaim(row)).returning();
  if (!counted) return false;
  const started = performance.now();
  const outcome = counted.webHookId !== null ? await sendToHook(db, keyring, counted, lease) : await send(db, mailer, keyring, counted, lease);
  await record(db, counted, outcome, (performance.now() - started) / 1000);
  return true;
}

/**
 * One pass of the delivery worker, one claimed delivery at a time; answers how many deliveries it
 * attempted. A call that fails while a delivery is prepared (namespaces away) ends the pass: that
 * delivery comes back once its lease lapses.
 */
export async function deliverDue(db: Db, broker: Caller, mailer: () => Mailer, keyring: Keyring, leaseMs = LEASE_MS): Promise<number> {
  let attempted = 0;
  for (let handled = 0; handled < PER_PASS; handled++) {
    const since = Date.now();
    const claimed = await claimNext(db, leaseMs);
    if (!claimed) break;
    const lease = holdLease(db, claimed, leaseMs, since);
    try {
      if (await deliver(db, broker, mailer, keyring, claimed, lease.signal)) attempted++;
    } finally {
      lease.release();
    }
  }
  return attempted;
}
