import { badRequestMessage, currentSettings, isLocalHostLiteral, isUniqueViolation, isWhitelisted, notFound, outboundPolicy, type Keyring } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { SetupParams } from "../api/integration.params";
import type { Effective } from "../api/integration.entity";
import { flagsOf, type KindDef } from "@collab/integrations-contract";
import { jiraSettingsValid } from "../deliveries/jira";
import { integrations, type IntegrationRow } from "../db/schema";
import type { Level } from "./levels";
import { openSecrets, sealSecrets } from "./secrets";

const ownerColumn = (level: Level) => (level.kind === "project" ? integrations.projectId : integrations.groupId);

/** The level's own rows (of some slugs). */
async function ownRows(db: Db, level: Level, slugs: string[]): Promise<IntegrationRow[]> {
  return db.select().from(integrations).where(and(eq(ownerColumn(level), level.id), inArray(integrations.slug, slugs)));
}

/** The active integrations of the level's ancestor groups, the closest one per slug. */
async function closestAncestorRows(db: Db, level: Level, slugs: string[]): Promise<Map<string, IntegrationRow>> {
  const found = new Map<string, IntegrationRow>();
  if (!level.ancestors.length) return found;
  const rows = await db
    .select()
    .from(integrations)
    .where(and(inArray(integrations.groupId, level.ancestors), inArray(integrations.slug, slugs), eq(integrations.active, true), isNull(integrations.projectId)));
  const depth = (r: IntegrationRow) => level.ancestors.indexOf(r.groupId!);
  for (const r of rows) {
    const seen = found.get(r.slug);
    // An ancestor that itself inherits is skipped: its own settings are not what applies.
    if (r.useInheritedSettings) continue;
    if (!seen || depth(r) > depth(seen)) found.set(r.slug, r);
  }
  return found;
}

/**
 * What applies for each slug at a level, GitLab's way: the level's own settings, or, when it has none
 * or asked for use_inherited_settings, its closest ancestor group's active ones (inherited: true).
 * Computed at read time, so a group's change reaches every descendant at once.
 */
export async function effectiveSettings(db: Db, level: Level, slugs: string[]): Promise<Map<string, Effective>> {
  const [own, ancestors] = await Promise.all([ownRows(db, level, slugs), closestAncestorRows(db, level, slugs)]);
  const result = new Map<string, Effective>();
  const ownBySlug = new Map(own.map((r) => [r.slug, r]));
  for (const slug of slugs) {
    const mine = ownBySlug.get(slug) ?? null;
    const parent = ancestors.get(slug);
    if (mine && !mine.useInheritedSettings) result.set(slug, { own: mine, source: mine, inherited: false });
    else if (parent) result.set(slug, { own: mine, source: parent, inherited: true });
    else if (mine) result.set(slug, { own: mine, source: mine, inherited: false });
  }
  return result;
}

export async function findEffective(db: Db, level: Level, slug: string): Promise<Effective> {
  const found = (await effectiveSettings(db, level, [slug])).get(slug);
  if (!found) throw notFound("Integration");
  return found;
}

/** GitLab's public_url validation: http(s), parseable, not local unless local requests are allowed. */
export function isAcceptableUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) return false;
  const policy = outboundPolicy(currentSettings());
  if (policy.allowLocal || !isLocalHostLiteral(url.hostname)) return true;
  // The whitelist lets a local host through here too, as UrlBlocker does for the validator.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return isWhitelisted(policy.whitelist, { host, address: host, port });
}

/** The model validations of a set-up: required values present, URLs valid; failure is GitLab's bare 400. */
function validate(kind: KindDef, properties: Record<string, unknown>) {
  for (const f of kind.fields) {
    const v = properties[f.name];
    const blank = v === undefined || v === null || (typeof v === "string" && v.trim() === "");
    if (f.required && blank) throw badRequestMessage("400 Bad Request");
    if (f.type === "url" && !blank && !isAcceptableUrl(String(v))) throw badRequestMessage("400 Bad Request");
  }
  if (kind.slug === "jira" && !jiraSettingsValid(properties)) throw badRequestMessage("400 Bad Request");
}

/**
 * Sets an integration up (PUT): the given fields and event booleans over what is stored, active.
 * use_inherited_settings follows the closest ancestor group's integration when there is one.
 * Validated in clear; stored with every secret sealed with the current key (which also seals one
 * an earlier version left in clear).
 */
export async function setUp(db: Db, keyring: Keyring, level: Level, kind: KindDef, params: SetupParams): Promise<void> {
  const given = (names: string[]) => Object.fromEntries(names.filter((n) => params[n] !== undefined).map((n) => [n, params[n]]));
  const inherit = params.use_inherited_settings === true && (await closestAncestorRows(db, level, [kind.slug])).has(kind.slug);
  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(integrations)
      .where(and(eq(ownerColumn(level), level.id), eq(integrations.slug, kind.slug)))
      .for("update");
    const givenProperties = given(kind.fields.map((f) => f.name));
    // Only what is kept is opened: a given value is plaintext whatever it looks like.
    const kept = Object.fromEntries(Object.entries(existing?.properties ?? {}).filter(([name]) => !(name in givenProperties)));
    const properties = { ...openSecrets(kind, kept, keyring), ...givenProperties };
    const events = { ...(existing?.events ?? {}), ...(given(flagsOf(kind)) as Record<string, boolean>) };
    validate(kind, properties);
    const values = { active: true, useInheritedSettings: inherit, properties: sealSecrets(kind, properties, keyring), events, updatedAt: new Date() };
    if (existing) await tx.update(integrations).set(values).where(eq(integrations.id, existing.id));
    else await tx.insert(integrations).values({ ...values, slug: kind.slug, projectId: level.kind === "project" ? level.id : null, groupId: level.kind === "group" ? level.id : null });
  }).catch((err: unknown) => {
    // Two set-ups of a new integration at once: the loser's is as if it came first and was overwritten.
    if (isUniqueViolation(err)) return setUp(db, keyring, level, kind, params);
    throw err;
  });
}

/** DELETE: the level's own integration back to its defaults, inactive; never set up → 404. */
export async function reset(db: Db, level: Level, slug: string): Promise<void> {
  const done = await db
    .update(integrations)
    .set({ active: false, useInheritedSettings: false, properties: {}, events: {}, updatedAt: sql`now()` })
    .where(and(eq(ownerColumn(level), level.id), eq(integrations.slug, slug)))
    .returning({ id: integrations.id });
  if (!done.length) throw notFound("Integration");
}
