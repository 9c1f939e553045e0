import { generateSecretsKey, isSealed, Keyring, resetSettings } from "@collab/core";
import { openScratchDatabase, type Database } from "@collab/db";
import { eq, sql } from "drizzle-orm";
import path from "node:path";
import { kindOf } from "@collab/integrations-contract";
import { integrations, webHooks } from "../db/schema";
import { integrationSecrets, secretOf } from "./secrets";
import { setUp } from "./settings";

/**
 * Integration secrets at rest: sealed by a set-up, opened for use, resealed by the re-encryption
 * pass — including rows an earlier version wrote in clear and rows sealed under a retired key.
 */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  resetSettings(); // the set-up validates URLs against the outbound policy: GitLab's defaults
  ({ database, dispose } = await openScratchDatabase("integrations-secrets"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_integrations" });
});
afterAll(() => dispose?.());
beforeEach(() => database.db.execute(sql`TRUNCATE integrations.integration_deliveries, integrations.integrations, integrations.web_hooks RESTART IDENTITY CASCADE`));

const newKey = () => Buffer.from(generateSecretsKey(), "base64");
const HOOK = "https://discord.example.com/api/webhooks/1/hook-secret";
const project = (id: number) => ({ kind: "project" as const, id, ancestors: [] });
const row = async (id: number) => (await database.db.select().from(integrations).where(eq(integrations.id, id)))[0];
const rawProperties = async (id: number) =>
  ((await database.db.execute(sql`SELECT properties::text AS p FROM integrations.integrations WHERE id = ${id}`)) as unknown as { rows: { p: string }[] }).rows[0].p;

test("a set-up stores secrets sealed and other settings in clear; the worker's read opens them", async () => {
  const keyring = new Keyring(newKey());
  await setUp(database.db, keyring, project(1), kindOf("discord"), { webhook: HOOK, branches_to_be_notified: "all" });
  const [stored] = await database.db.select().from(integrations);
  expect(await rawProperties(stored.id)).not.toContain("hook-secret");
  expect(stored.properties).toMatchObject({ webhook: expect.stringMatching(new RegExp(`^enc:v1:${keyring.currentKeyId}:`)), branches_to_be_notified: "all" });
  expect(secretOf(stored, "webhook", keyring)).toBe(HOOK);
});

test("a row an earlier version wrote in clear still works, and the next set-up seals what it keeps", async () => {
  const keyring = new Keyring(newKey());
  const [legacy] = await database.db.insert(integrations).values({ projectId: 1, slug: "discord", active: true, properties: { webhook: HOOK } }).returning();
  expect(secretOf(legacy, "webhook", keyring)).toBe(HOOK);
  // Only a non-secret setting changes: the kept webhook is validated in clear and stored sealed.
  await setUp(database.db, keyring, project(1), kindOf("discord"), { notify_only_default_branch: true });
  const after = await row(legacy.id);
  expect(isSealed(after.properties.webhook)).toBe(true);
  expect(secretOf(after, "webhook", keyring)).toBe(HOOK);
  expect(after.properties.notify_only_default_branch).toBe(true);
});

test("the re-encryption pass seals clear values and reseals old-key ones with the current key, once", async () => {
  const oldKey = newKey();
  const old = new Keyring(oldKey);
  const rows = await database.db
    .insert(integrations)
    .values([
      { projectId: 1, slug: "discord", properties: { webhook: HOOK } },
      { projectId: 2, slug: "asana", properties: { api_key: old.seal("asana-key"), restrict_to_branch: "main" } },
      { projectId: 3, slug: "bamboo", properties: { password: "", username: "u" } },
      { projectId: 4, slug: "no-longer-known", properties: { token: "left alone" } },
    ])
    .returning();
  const currentKey = newKey();
  const keyring = new Keyring(currentKey, [oldKey]);
  expect(await integrationSecrets.reseal(database.db, keyring)).toBe(2);
  const [discord, asana, bamboo, unknown] = await Promise.all(rows.map((r) => row(r.id)));
  for (const [r, name, plain] of [[discord, "webhook", HOOK], [asana, "api_key", "asana-key"]] as const) {
    expect(keyring.needsResealing(r.properties[name] as string)).toBe(false);
    expect(secretOf(r, name, keyring)).toBe(plain);
  }
  expect(await rawProperties(discord.id)).not.toContain("hook-secret");
  expect(asana.properties.restrict_to_branch).toBe("main");
  expect(bamboo.properties).toEqual({ password: "", username: "u" });
  expect(unknown.properties).toEqual({ token: "left alone" });
  // Nothing left to do; and the retired key is no longer needed.
  expect(await integrationSecrets.reseal(database.db, keyring)).toBe(0);
  expect(secretOf(await row(asana.id), "api_key", new Keyring(currentKey))).toBe("asana-key");
});

test("webhooks: the re-encryption pass reseals their token, header and URL variable values under an old key", async () => {
  const oldKey = newKey();
  const old = new Keyring(oldKey);
  const [hook] = await database.db
    .insert(webHooks)
    .values({ projectId: 1, url: "https://example.com/{p}", token: old.seal("tok"), customHeaders: { "X-A": old.seal("hv") }, urlVariables: { p: old.seal("pv") } })
    .returning();
  const currentKey = newKey();
  const keyring = new Keyring(currentKey, [oldKey]);
  expect(await integrationSecrets.reseal(database.db, keyring)).toBe(3);
  const [after] = await database.db.select().from(webHooks).where(eq(webHooks.id, hook.id));
  const current = new Keyring(currentKey);
  expect([current.open(after.token!), current.open(after.customHeaders["X-A"]), current.open(after.urlVariables.p)]).toEqual(["tok", "hv", "pv"]);
  expect(await integrationSecrets.reseal(database.db, keyring)).toBe(0);
});
