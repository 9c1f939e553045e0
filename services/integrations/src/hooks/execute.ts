import { checkOutboundUrl, currentSettings, externalUrl, outboundPolicy, type Keyring } from "@collab/core";
import type { Db } from "@collab/db";
import type { TriggerDef } from "@collab/integrations-contract";
import { and, eq } from "drizzle-orm";
import { createHash } from "node:crypto";
import { webHookLogs, webHooks, type WebHookRow } from "../db/schema";
import { postJson } from "../deliveries/post";
import { categoryOf, stateAfter, type Category } from "./auto-disabling";

/** The GitLab version this API answers as (the gateway's /version): User-Agent: GitLab/<version>. */
export const GITLAB_VERSION = "18.6.0";
const TIMEOUT_MS = 10_000;
/** What a hook log keeps of a response body (GitLab truncates it too). */
const RESPONSE_BODY_BYTES = 8 * 1024;
const REDACTED = "[REDACTED]";

export interface Execution {
  /** The HTTP status, null when no answer came (network error, timeout, refused URL). */
  status: number | null;
  category: Category | "refused";
  error?: string;
}

/** The hook's URL with its {variables} filled in (values are write-only: sealed at rest). */
export function interpolatedUrl(hook: WebHookRow, keyring: Keyring): string {
  const vars = hook.urlVariables;
  return hook.url.replace(/\{([A-Za-z0-9._-]+)\}/g, (whole, key: string) => (key in vars ? encodeURIComponent(keyring.open(vars[key])) : whole));
}

/**
 * Runs one hook with one payload (GitLab's WebHookService#execute): through the outbound guard,
 * POST with GitLab's headers; logged (WebHookLog) with the token and header values masked; the
 * hook's auto-disabling state follows the answer. `eventUuid` is the same for every hook of one
 * event; `idempotencyKey` the same for every attempt (and resend) of one delivery.
 */
export async function executeHook(
  db: Db,
  keyring: Keyring,
  hook: WebHookRow,
  trigger: TriggerDef,
  data: Record<string, unknown>,
  ids: { eventUuid: string; idempotencyKey: string },
  signal?: AbortSignal,
): Promise<Execution> {
  const url = interpolatedUrl(hook, keyring);
  const shown: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": `GitLab/${GITLAB_VERSION}`,
    "X-Gitlab-Event": trigger.header,
    "X-Gitlab-Webhook-UUID": hook.uuid,
    "X-Gitlab-Instance": externalUrl(),
    "X-Gitlab-Event-UUID": ids.eventUuid,
    "Idempotency-Key": ids.idempotencyKey,
  };
  const sent = { ...shown };
  for (const [key, sealed] of Object.entries(hook.customHeaders)) {
    sent[key] = keyring.open(sealed);
    shown[key] = REDACTED;
  }
  if (hook.token) {
    sent["X-Gitlab-Token"] = keyring.open(hook.token);
    shown["X-Gitlab-Token"] = REDACTED;
  }
  const started = performance.now();
  let outcome: Execution;
  let responseHeaders: Record<string, string> = {};
  let responseBody = "";
  const verdict = await checkOutboundUrl(url, outboundPolicy(currentSettings()));
  if (!verdict.allowed) outcome = { status: null, category: "refused", error: verdict.reason };
  else {
    try {
      const res = await postJson(url, data, verdict, TIMEOUT_MS, signal, { headers: sent, verifyTls: hook.enableSslVerification, keepBodyBytes: RESPONSE_BODY_BYTES });
      responseHeaders = res.headers;
      responseBody = res.body;
      outcome = { status: res.status, category: categoryOf(res.status) };
    } catch (err) {
      outcome = { status: null, category: "error", error: (err as Error).message };
    }
  }
  const duration = (performance.now() - started) / 1000;
  await db.insert(webHookLogs).values({
    webHookId: hook.id,
    trigger: trigger.scope,
    // The URL as configured: interpolated variables would show their (write-only) values.
    url: hook.url,
    requestHeaders: shown,
    requestData: data,
    responseHeaders,
    responseBody,
    responseStatus: outcome.status === null ? "internal error" : String(outcome.status),
    executionDuration: duration,
    internalErrorMessage: outcome.error ?? null,
  });
  if (outcome.category !== "refused") await followState(db, hook.id, outcome.category);
  return outcome;
}

/** Applies the auto-disabling transition to the hook as it is now (a row lock keeps concurrent executions in line). */
async function followState(db: Db, hookId: number, category: Category): Promise<void> {
  await db.transaction(async (tx) => {
    const [now] = await tx.select().from(webHooks).where(eq(webHooks.id, hookId)).for("update");
    const next = now && stateAfter(now, category);
    if (next) await tx.update(webHooks).set(next).where(and(eq(webHooks.id, hookId)));
  });
}

/** A delivery's Idempotency-Key: a UUID-shaped digest of the event and the hook, the same on every retry. */
export function idempotencyKeyOf(eventId: string, hookId: number): string {
  const h = createHash("sha256").update(`${eventId}:${hookId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
