import type { ActionSchema } from "moleculer";
import { badRequest, badRequestMessage, notFound, recordId, reply, unauthorized, type Ctx, actionsOf, implement } from "@collab/core";
import { projectMap } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { activeClientKey } from "../client-keys/client-keys.service";
import { findSetting } from "../settings/settings.service";
import { ErrorTracking, type CollectInput } from "@collab/error-tracking-contract";
import { errorEventFields, parseEnvelope, type ErrorEventFields } from "./envelope";
import { presentErrorEvent } from "./error-event.entity";
import { listErrorEvents, storeErrorEvents } from "./error-events.service";
import { publicKeyOf } from "./sentry-auth";

const unparsable = () => badRequest("Failed to parse sentry request");
const unsupported = () => badRequest("Unsupported sentry payload");

/**
 * GitLab's collector checks, in its order: the project exists (404 Project Not Found), it has
 * integrated error tracking switched on (404 Not Found), the request carries an active key of
 * that project (401 when it carries none, or a key unknown, deleted or inactive: the issue asks
 * for 401 where GitLab answers 404; a header that does not parse is 400). The project's visibility
 * does not matter: the key is the credential.
 */
async function authorizeSubmission(kit: ServiceKit, ctx: Ctx<CollectInput>): Promise<number> {
  const id = recordId(ctx.params.id);
  if (typeof id !== "number" || !(await projectMap(ctx, [id])).has(id)) throw notFound("Project");
  const setting = await findSetting(kit.db, id);
  if (!setting?.enabled || !setting.integrated) throw notFound();
  let publicKey: string | undefined;
  try {
    publicKey = publicKeyOf(ctx.params.sentry_key, ctx.params.headers["x-sentry-auth"]);
  } catch {
    throw unparsable();
  }
  if (!publicKey || !(await activeClientKey(kit.db, id, publicKey))) throw unauthorized();
  return id;
}

const bodyOf = (input: CollectInput) => Buffer.from(input.raw_body.data, "base64");

/** The error events of an envelope; GitLab refuses envelopes that are neither an event nor a transaction. */
function envelopeEvents(body: Buffer): { fields: ErrorEventFields; payload: unknown }[] {
  let envelope;
  try {
    envelope = parseEnvelope(body);
  } catch {
    throw unparsable();
  }
  const type = envelope.items[0]?.type;
  if (type !== "event" && type !== "transaction") throw badRequestMessage("400 Bad Request");
  // Transactions (performance data) have no use here: accepted and dropped, as GitLab does.
  return envelope.items
    .filter((item) => item.type === "event")
    .map((item) => {
      const fields = errorEventFields(item.payload, envelope.header.event_id);
      if (!fields) throw unsupported();
      return { fields, payload: item.payload };
    });
}

function storeEvent(body: Buffer): { fields: ErrorEventFields; payload: unknown } {
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch {
    throw unparsable();
  }
  const fields = errorEventFields(payload);
  if (!fields) throw unsupported();
  return { fields, payload };
}

/** The collector never answers anything back but 200 (some SDKs need exactly that). */
const received = () => reply(200, {});

export const collectorActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "collector.envelope": implement(
    ErrorTracking.collector.envelope,
    async (ctx) => {
      const projectId = await authorizeSubmission(kit, ctx);
      await storeErrorEvents(kit.db, projectId, envelopeEvents(bodyOf(ctx.params)));
      return received();
    },
    { visibility: "published" },
  ),
  "collector.store": implement(
    ErrorTracking.collector.store,
    async (ctx) => {
      const projectId = await authorizeSubmission(kit, ctx);
      await storeErrorEvents(kit.db, projectId, [storeEvent(bodyOf(ctx.params))]);
      return received();
    },
    { visibility: "published" },
  ),
  ...actionsOf("error-tracking", [
    /** The events stored for a project, for other services and tests (no HTTP route). */
    implement(ErrorTracking.errors.list, async (ctx) => (await listErrorEvents(kit.db, ctx.params.project_id)).map(presentErrorEvent)),
  ]),
});
