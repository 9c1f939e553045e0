import { generateSecretsKey, Keyring, type Mail, type Mailer } from "@collab/core";
import { openScratchDatabase, type Database } from "@collab/db";
import { eq, sql } from "drizzle-orm";
import path from "node:path";
import { integrationDeliveries, integrations } from "../db/schema";
import type { Caller } from "./targets";
import { deliverDue } from "./worker";
import { Runners } from "@collab/runners-contract";

/**
 * The delivery worker's claims against the service's migrated tables, with a short lease (the
 * worker's is a minute) and mailers that hold their sends until the test lets them go.
 */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("integrations-deliveries"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_integrations" });
});
afterAll(() => dispose?.());
beforeEach(() => database.db.execute(sql`TRUNCATE integrations.integration_deliveries, integrations.integrations RESTART IDENTITY CASCADE`));

const LEASE_MS = 400;
const keyring = new Keyring(Buffer.from(generateSecretsKey(), "base64"));
const noBus = { call: () => Promise.reject(new Error("no bus call expected")) } as unknown as Caller;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean | Promise<boolean>) {
  for (const deadline = Date.now() + 5000; !(await check()); await sleep(10)) if (Date.now() > deadline) throw new Error("timed out");
}

/** A mailer recording each send in `sent`; `hold` makes every send wait until `release()`. */
function mailer(sent: string[], hold = false) {
  const waiting: (() => void)[] = [];
  const m: Mailer = {
    send: (mail: Mail) => {
      sent.push(mail.to);
      return hold ? new Promise<void>((r) => waiting.push(r)) : Promise.resolve();
    },
    sendLater: () => undefined,
    close: () => undefined,
  };
  return { get: () => m, release: () => waiting.splice(0).forEach((r) => r()) };
}

/** A pending pipeline email to `to`, due now. */
async function pendingMail(to: string[]): Promise<number> {
  const [integration] = await database.db.insert(integrations).values({ projectId: 1, slug: "pipelines-email", active: true }).returning();
  const [row] = await database.db
    .insert(integrationDeliveries)
    .values({
      integrationId: integration.id,
      slug: "pipelines-email",
      projectId: 1,
      eventId: "e1",
      eventName: Runners.events.pipelineFinished.name,
      occurredAt: new Date(),
      payload: {},
      message: { to, subject: "team/app | Pipeline #5 has failed", text: "failed" },
      status: "pending",
    })
    .returning();
  return row.id;
}
const deliveryRow = async (id: number) => (await database.db.select().from(integrationDeliveries).where(eq(integrationDeliveries.id, id)))[0];

test("a delivery that outlasts its lease is not taken by another replica while the first still sends it: it goes out once", async () => {
  const id = await pendingMail(["ann@example.com"]);
  const sent: string[] = [];
  const slow = mailer(sent, true);
  const first = deliverDue(database.db, noBus, slow.get, keyring, LEASE_MS);
  await until(() => sent.length === 1);

  // Another replica passes again and again for three leases while the first send hangs.
  const other = mailer(sent);
  for (const end = Date.now() + 3 * LEASE_MS; Date.now() < end; await sleep(LEASE_MS / 8)) {
    expect(await deliverDue(database.db, noBus, other.get, keyring, LEASE_MS)).toBe(0);
  }
  slow.release();
  expect(await first).toBe(1);
  expect(sent).toEqual(["ann@example.com"]);
  expect(await deliveryRow(id)).toMatchObject({ status: "delivered", attempts: 1, responseCode: 250 });
  expect(await deliverDue(database.db, noBus, other.get, keyring, LEASE_MS)).toBe(0);
});

test("a claim whose worker is gone comes back after its lease; the worker that lost it sends no more and records nothing", async () => {
  const id = await pendingMail(["ann@example.com", "bob@example.com"]);
  const sent: string[] = [];
  const slow = mailer(sent, true);
  const first = deliverDue(database.db, noBus, slow.get, keyring, LEASE_MS);
  await until(() => sent.length === 1);
  // As if another replica had claimed the row after this one lost its database for a whole lease.
  await database.db.execute(sql`UPDATE integrations.integration_deliveries SET claims = claims + 1, next_attempt_at = now() + interval '1 hour'`);
  await sleep(LEASE_MS / 2);
  slow.release();
  await first;
  expect(sent).toEqual(["ann@example.com"]);
  expect(await deliveryRow(id)).toMatchObject({ status: "pending", attempts: 1, deliveredAt: null });

  // That other claim's worker is gone too: once its lease lapses, the next pass delivers.
  await database.db.execute(sql`UPDATE integrations.integration_deliveries SET next_attempt_at = now() - interval '1 second'`);
  const again = mailer(sent);
  expect(await deliverDue(database.db, noBus, again.get, keyring, LEASE_MS)).toBe(1);
  expect(await deliveryRow(id)).toMatchObject({ status: "delivered", attempts: 2 });
});
