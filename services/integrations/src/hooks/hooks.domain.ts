import { AccessLevel, ApiError, call, forbidden, recordNotFound, routeNotFound, type Ctx, type Keyring } from "@collab/core";
import { isAcceptableUrl } from "../domain/settings";
import type { Db } from "@collab/db";
import { triggersOf, type HookLevel, type HookWrite } from "@collab/integrations-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { authorizeProject } from "@collab/work-items";
import { and, asc, eq } from "drizzle-orm";
import { webHooks, type WebHookRow } from "../db/schema";
import { groupHooksAvailable } from "./deliveries";
import { regexError } from "./branch-filter";

/** The project or group whose hooks a route names. */
export interface HookOwner {
  level: HookLevel;
  id: number;
}

/**
 * Who manages hooks: Maintainer+ of a project (admin_project), Owner of a group (admin_group); an
 * unreadable project or group is 404 (namespaces answers so). Group hooks are Premium+: 404 on Free.
 */
export async function hookOwner(ctx: Ctx<unknown>, level: HookLevel, ref: string): Promise<HookOwner> {
  if (level === "project") {
    const access = await authorizeProject(ctx, ref);
    if (access.role < AccessLevel.MAINTAINER) throw forbidden();
    return { level, id: access.project.id };
  }
  if (!groupHooksAvailable()) throw routeNotFound();
  const access = await call(ctx, Namespaces.access.group, { group: ref });
  if (access.role < AccessLevel.OWNER) throw forbidden();
  return { level, id: access.group.id };
}

const ownerColumn = (o: HookOwner) => (o.level === "project" ? webHooks.projectId : webHooks.groupId);

export const listHooks = (db: Db, o: HookOwner) => db.select().from(webHooks).where(eq(ownerColumn(o), o.id)).orderBy(asc(webHooks.id));

/** A hook looked up inside the project or group the path names: another's is 404. */
export async function findHook(db: Db, o: HookOwner, hookId: number): Promise<WebHookRow> {
  const [hook] = await db.select().from(webHooks).where(and(eq(webHooks.id, hookId), eq(ownerColumn(o), o.id)));
  if (!hook) throw recordNotFound();
  return hook;
}

const invalid = (message: string) => new ApiError(422, { error: message }, "UNPROCESSABLE");
const validationFailed = (errors: Record<string, string[]>) => new ApiError(422, { message: errors }, "UNPROCESSABLE");

/** GitLab's web hook URL validation (the integrations' public URL check, {variables} filled with placeholders). */
const urlAcceptable = (raw: string, variables: Record<string, unknown>) => isAcceptableUrl(raw.replace(/\{([A-Za-z0-9._-]+)\}/g, (whole, key: string) => (key in variables ? "x" : whole)));

const KEY = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;
const HEADER_KEY = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** What an HTTP header value may hold (no control characters: a line break would split the request). */
const HEADER_VALUE = /^[^\x00-\x08\x0a-\x1f\x7f]{0,2048}$/;
const MAX_ENTRIES = 20;

type Sealed = Record<string, string>;

/** The hook's columns from a write over what is stored (`current` on update), validated as GitLab's WebHook model does. */
function columnsOf(o: HookOwner, p: HookWrite, current: WebHookRow | null, keyring: Keyring) {
  const urlVariables: Sealed = { ...(current?.urlVariables ?? {}) };
  for (const { key, value } of p.url_variables ?? []) {
    if (!KEY.test(key) || key.length > 255) throw validationFailed({ url_variables: ["must be a valid json schema"] });
    urlVariables[key] = keyring.seal(value);
  }
  const customHeaders: Sealed = { ...(current?.customHeaders ?? {}) };
  for (const { key, value } of p.custom_headers ?? []) {
    if (!HEADER_KEY.test(key) || key.length > 255 || !HEADER_VALUE.test(value)) throw invalid("Custom headers validation failed: must be a valid json schema");
    customHeaders[key] = keyring.seal(value);
  }
  if (Object.keys(urlVariables).length > MAX_ENTRIES) throw validationFailed({ url_variables: ["must be a valid json schema"] });
  if (Object.keys(customHeaders).length > MAX_ENTRIES) throw invalid("Custom headers validation failed: must be a valid json schema");
  const url = p.url ?? current?.url ?? "";
  // A URL changed without its variables drops the variables it no longer names (GitLab resets them).
  if (!url.trim() || !urlAcceptable(url, urlVariables)) throw invalid("Invalid url given");
  const missing = [...url.matchAll(/\{([A-Za-z0-9._-]+)\}/g)].map((m) => m[1]).filter((k) => !(k in urlVariables));
  if (missing.length) throw validationFailed({ url: [`Invalid URL template. Missing keys: ${JSON.stringify(missing)}`] });
  const strategy = p.branch_filter_strategy ?? current?.branchFilterStrategy ?? "wildcard";
  let filter = p.push_events_branch_filter !== undefined ? p.push_events_branch_filter : (current?.pushEventsBranchFilter ?? null);
  if (strategy === "all_branches") filter = null;
  if (filter && strategy === "regex" && regexError(filter)) throw invalid("Invalid branch filter given");
  if (filter && strategy === "wildcard" && /[\s~^:?[\\]|\.\.|@\{/.test(filter)) throw invalid("Invalid branch filter given");
  const events: Record<string, boolean> = { ...(current?.events ?? {}) };
  for (const t of triggersOf(o.level)) if (typeof p[t.flag] === "boolean") events[t.flag] = p[t.flag] as boolean;
  return {
    url,
    name: p.name !== undefined ? p.name : (current?.name ?? null),
    description: p.description !== undefined ? p.description : (current?.description ?? null),
    token: p.token !== undefined ? (p.token === "" ? null : keyring.seal(p.token)) : (current?.token ?? null),
    enableSslVerification: p.enable_ssl_verification ?? current?.enableSslVerification ?? true,
    pushEventsBranchFilter: filter || null,
    branchFilterStrategy: strategy,
    customWebhookTemplate: p.custom_webhook_template !== undefined ? p.custom_webhook_template : (current?.customWebhookTemplate ?? null),
    customHeaders,
    urlVariables,
    events,
  };
}

export async function createHook(db: Db, keyring: Keyring, o: HookOwner, p: HookWrite): Promise<WebHookRow> {
  const values = columnsOf(o, p, null, keyring);
  const [row] = await db
    .insert(webHooks)
    .values({ ...values, projectId: o.level === "project" ? o.id : null, groupId: o.level === "group" ? o.id : null })
    .returning();
  return row;
}

const WRITABLE = new Set(["url", "name", "description", "token", "enable_ssl_verification", "push_events_branch_filter", "branch_filter_strategy", "custom_webhook_template", "custom_headers", "url_variables"]);

/** PUT: what is given over what is stored; nothing given is GitLab's 400 "No parameters provided". */
export async function updateHook(db: Db, keyring: Keyring, o: HookOwner, hookId: number, p: HookWrite): Promise<WebHookRow> {
  const flags = new Set(triggersOf(o.level).map((t) => t.flag));
  const given = Object.keys(p).filter((k) => p[k] !== undefined && (WRITABLE.has(k) || flags.has(k)));
  if (!given.length) throw new ApiError(400, { error: "No parameters provided" }, "BAD_REQUEST");
  return db.transaction(async (tx) => {
    const current = await findHook(tx, o, hookId);
    const [locked] = await tx.select().from(webHooks).where(eq(webHooks.id, current.id)).for("update");
    const values = columnsOf(o, p, locked, keyring);
    const [row] = await tx.update(webHooks).set(values).where(eq(webHooks.id, current.id)).returning();
    return row;
  });
}

export async function deleteHook(db: Db, o: HookOwner, hookId: number): Promise<void> {
  const hook = await findHook(db, o, hookId);
  await db.delete(webHooks).where(eq(webHooks.id, hook.id));
}
