import { apiClient, createUserAccount, eventually, type ApiClient, type TestApp } from "@collab/testing";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { connect, JSONCodec, type NatsConnection } from "nats";
import { startApp } from "@collab/standalone/test/app";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * Distributed pass only: dead letters, as an administrator sees them. A letter is stored the way a
 * consumer stores one after its last retry (the stream and subject of @collab/db's
 * sendToDeadLetters); the admin API lists it, replays it through its service, deletes it, and the
 * `npm run dead-letters` command does the same from a shell.
 */
let app: TestApp;
let root: ApiClient;
let nc: NatsConnection;

beforeAll(async () => {
  app = await startApp("dead-letters");
  nc = await connect({ servers: process.env.TEST_TRANSPORTER!.replace("nats://", ""), user: process.env.NATS_USER, pass: process.env.NATS_PASSWORD });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name: "COLLAB_DEAD_LETTERS", subjects: ["collab-dead-letter.>"] }).catch(() => undefined);
});
afterAll(async () => {
  await nc?.drain();
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  const jsm = await nc.jetstreamManager();
  await jsm.streams.purge("COLLAB_DEAD_LETTERS");
});

async function storeLetter(event: { id: string; name: string; payload: unknown }) {
  const letter = { service: "issues", event: { ...event, occurredAt: new Date().toISOString() }, error: "database unavailable", deliveries: 15, dead_lettered_at: new Date().toISOString() };
  await nc.jetstream().publish(`collab-dead-letter.issues.${event.name}`, JSONCodec().encode(letter));
  return letter;
}

async function labelledIssue(name: string) {
  const project = await root.post("/projects", { json: { name } });
  const label = await root.post(`/projects/${project.body.id}/labels`, { json: { name: "stuck", color: "#123456" } });
  const issue = await root.post(`/projects/${project.body.id}/issues`, { json: { title: "Held back", labels: "stuck" } });
  expect([project.status, label.status, issue.status]).toEqual([201, 201, 201]);
  return { projectId: project.body.id as number, labelId: label.body.id as number, iid: issue.body.iid as number };
}

test("administrators list a dead letter and replay it: its service applies it, and it is gone", async () => {
  const { projectId, labelId, iid } = await labelledIssue("Dead letters");
  const event = { id: randomUUID(), name: Namespaces.events.labelDeleted.name, payload: { labelIds: [labelId], projectId, groupId: null } };
  await storeLetter(event);

  const list = await root.get("/admin/dead_letters");
  expect(list.status).toBe(200);
  expect(list.headers.get("x-total")).toBe("1");
  expect(list.body).toEqual([expect.objectContaining({ id: expect.any(Number), service: "issues", event: expect.objectContaining({ id: event.id, name: event.name }), deliveries: 15 })]);
  const id = list.body[0].id;
  expect((await root.get(`/admin/dead_letters/${id}`)).body).toEqual(list.body[0]);

  // Not for other users.
  const bob = await createUserAccount(app, "bob");
  const bobToken = await root.post(`/users/${bob.id}/personal_access_tokens`, { json: { name: "t", scopes: ["api"] } });
  expect((await apiClient(app.url, bobToken.body.token).get("/admin/dead_letters")).status).toBe(403);

  const replayed = await root.post(`/admin/dead_letters/${id}/replay`);
  expect(replayed.status).toBe(200);
  expect(replayed.body).toEqual({ id, service: "issues", event: event.name, replayed: true });
  const issue = await root.get(`/projects/${projectId}/issues/${iid}`);
  expect(issue.body.labels).toEqual([]);
  expect((await root.get("/admin/dead_letters")).body).toEqual([]);
  expect((await root.get(`/admin/dead_letters/${id}`)).status).toBe(404);
});

test("the command lists, replays and deletes; a replay that fails leaves the letter", async () => {
  const { projectId, labelId, iid } = await labelledIssue("Command");
  await storeLetter({ id: randomUUID(), name: Namespaces.events.labelDeleted.name, payload: { labelIds: [labelId], projectId, groupId: null } });
  // An event the issues service has no consumer for: its replay fails, the letter stays.
  await storeLetter({ id: randomUUID(), name: "namespaces.unknown.event", payload: {} });
  // Asynchronously: this process is a node of the bus too, and must go on answering it.
  const command = (...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [path.join(__dirname, "../../../../scripts/dead-letters.js"), ...args], { env: { ...process.env, COLLAB_URL: app.url, COLLAB_TOKEN: app.rootToken } }, (err, stdout, stderr) =>
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );

  const listed = await command("list");
  expect({ status: listed.status, stderr: listed.stderr }).toEqual({ status: 0, stderr: "" });
  expect(JSON.parse(listed.stdout).total).toBe(2);

  const replayAll = await command("replay", "all");
  expect(replayAll.status).toBe(1); // one replay failed
  const outcomes = JSON.parse(replayAll.stdout) as { event: string; replayed: boolean }[];
  expect(outcomes.map((o) => [o.event, o.replayed])).toEqual([
    [Namespaces.events.labelDeleted.name, true],
    ["namespaces.unknown.event", false],
  ]);
  await eventually(async () => expect((await root.get(`/projects/${projectId}/issues/${iid}`)).body.labels).toEqual([]));

  const left = JSON.parse((await command("list")).stdout) as { total: number; letters: { id: number }[] };
  expect(left.total).toBe(1);
  expect((await command("delete", String(left.letters[0].id))).status).toBe(0);
  expect(JSON.parse((await command("list")).stdout).total).toBe(0);
  expect((await command("delete", String(left.letters[0].id))).status).toBe(1); // already gone: 404
});
