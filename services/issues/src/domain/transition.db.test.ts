import { openScratchDatabase, type Database } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { eq, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { issues, outbox, resourceStateEvents, type IssueRow } from "../db/schema";
import { issuePayload } from "./events";
import { createIssue, isTransitionOnly, transitionIssue } from "./issues";

/** The one-statement close/reopen against the service's migrated tables. */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("issues-transition"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_issues" });
});
afterAll(() => dispose?.());
beforeEach(() =>
  database.db.execute(sql`TRUNCATE issues.issues, issues.resource_state_events, issues.outbox, issues.subscriptions, issues.internal_ids RESTART IDENTITY CASCADE`),
);

const author = { id: 7, username: "author" };
const open = () => createIssue(database.db, 1, author, { title: "A bug" }, randomUUID());

test("a close writes the state, its state event and its closed event, and answers whether the caller follows", async () => {
  const issue = await open();
  await database.db.delete(outbox);
  const eventId = randomUUID();
  const moved = await transitionIssue(database.db, issue, "close", 9, eventId);

  expect(moved?.subscribed).toBe(false);
  expect(moved?.issue).toMatchObject({ id: issue.id, state: "closed", closedById: 9, updatedById: 9 });
  expect(moved?.issue.closedAt).toEqual(moved?.issue.updatedAt);
  const [stored] = await database.db.select().from(issues).where(eq(issues.id, issue.id));
  expect(stored).toEqual(moved?.issue);
  expect((await database.db.select().from(resourceStateEvents)).map((e) => [e.issueId, e.userId, e.state])).toEqual([[issue.id, 9, "closed"]]);
  const events = await database.db.select().from(outbox);
  expect(events.map((e) => [e.eventId, e.name, e.payload])).toEqual([[eventId, Issues.events.issueClosed.name, issuePayload(stored, 9)]]);

  // The author follows (createIssue subscribed them); a reopen by them says so and clears the close.
  const reopened = await transitionIssue(database.db, stored, "reopen", author.id, randomUUID());
  expect(reopened?.subscribed).toBe(true);
  expect(reopened?.issue).toMatchObject({ state: "opened", closedAt: null, closedById: null, updatedById: author.id });
  expect((await database.db.select().from(resourceStateEvents)).map((e) => e.state)).toEqual(["closed", "reopened"]);
  expect((await database.db.select().from(outbox)).map((e) => e.name)).toEqual([Issues.events.issueClosed.name, Issues.events.issueReopened.name]);
});

test("a transition from a state the issue has left meanwhile writes nothing and answers null", async () => {
  const issue = await open();
  await database.db.delete(outbox);
  expect(await transitionIssue(database.db, issue, "close", 9, randomUUID())).not.toBeNull();
  // A second request loaded the issue while it was still open.
  expect(await transitionIssue(database.db, issue, "close", 10, randomUUID())).toBeNull();
  expect(await database.db.select().from(resourceStateEvents)).toHaveLength(1);
  expect(await database.db.select().from(outbox)).toHaveLength(1);
  const [stored] = await database.db.select().from(issues).where(eq(issues.id, issue.id));
  expect(stored.closedById).toBe(9);
});

test("only a state change that changes the state is a transition", () => {
  const opened = { state: "opened" } as IssueRow;
  const closed = { state: "closed" } as IssueRow;
  expect(isTransitionOnly(opened, { stateEvent: "close" })).toBe(true);
  expect(isTransitionOnly(closed, { stateEvent: "reopen" })).toBe(true);
  expect(isTransitionOnly(closed, { stateEvent: "close" })).toBe(false);
  expect(isTransitionOnly(opened, { stateEvent: "reopen" })).toBe(false);
  expect(isTransitionOnly(opened, { stateEvent: "close", title: "x" })).toBe(false);
  expect(isTransitionOnly(opened, { stateEvent: "close", labelIds: [] })).toBe(false);
  expect(isTransitionOnly(opened, { stateEvent: "close", description: undefined })).toBe(true);
  expect(isTransitionOnly(opened, {})).toBe(false);
});

