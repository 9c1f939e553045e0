import { loadConfig } from "@collab/core";
import { apiClient, type ApiClient } from "@collab/testing";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SECRETS_KEY_FILE, startStandalone, type Standalone } from "@collab/standalone";

/**
 * The `npm start` path on a machine that ran an earlier Collab: its ./data/pglite (made by commit
 * 8eedf9d, see fixtures/pglite/make-fixture.sh) is imported into the embedded PostgreSQL on the
 * first start, and everything in it is there through the API. Embedded only: it starts its own
 * process-local API and PostgreSQL.
 */
const FIXTURE = path.join(__dirname, "../fixtures/pglite/data-8eedf9d.tar.xz");
const ROOT_TOKEN = "glpat-fixture-root-0001"; // root's token in the fixture
const ALICE_TOKEN = "glpat-Yf4AGaojjnUhHy0Nk5mB";

let dir: string;
let app: Standalone | undefined;
let root: ApiClient;
let alice: ApiClient;

function extractFixture(into: string) {
  const tar = spawnSync("tar", ["-xJf", FIXTURE, "-C", into], { encoding: "utf8" });
  if (tar.status !== 0) throw new Error(`tar -xJf ${FIXTURE} failed (needs tar and xz): ${tar.stderr || tar.error?.message}`);
}

async function start(): Promise<Standalone> {
  const env = { ...process.env, EMBEDDED_PG_DIR: path.join(dir, "postgres"), PGLITE_DATA_DIR: path.join(dir, "pglite"), PORT: "0", INITIAL_ROOT_TOKEN: "glpat-not-the-fixture-root-token" };
  delete env.DATABASE_URL;
  delete env.SECRETS_KEY; // as npm start runs out of the box: it keeps a generated key beside its database

  const started = await startStandalone(loadConfig(env));
  const port = (started.broker.getLocalService("gateway") as unknown as { server: { address(): { port: number } } }).server.address().port;
  root = apiClient(`http://127.0.0.1:${port}`, ROOT_TOKEN);
  alice = apiClient(`http://127.0.0.1:${port}`, ALICE_TOKEN);
  return started;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "collab-pglite-import-"));
  fs.chmodSync(dir, 0o755); // as root the server runs as "postgres", which must reach the folder
  extractFixture(dir);
  app = await start();
}, 120_000);

const testSecretsKey = process.env.SECRETS_KEY;
const secretsKeyFile = () => path.join(dir, "postgres", SECRETS_KEY_FILE);

afterAll(async () => {
  await app?.stop();
  delete process.env.DATABASE_URL;
  process.env.SECRETS_KEY = testSecretsKey;
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the first start imports the folder and keeps it renamed", () => {
  const entries = fs.readdirSync(dir);
  expect(entries).not.toContain("pglite");
  expect(entries.filter((e) => /^pglite\.imported-\d{8}T\d{6}$/.test(e))).toHaveLength(1);
});

test("without SECRETS_KEY, the key credentials are sealed with is generated beside the database (mode 600) and used", () => {
  const key = fs.readFileSync(secretsKeyFile(), "utf8").trim();
  expect(Buffer.from(key, "base64")).toHaveLength(32);
  expect(fs.statSync(secretsKeyFile()).mode & 0o777).toBe(0o600);
  expect(process.env.SECRETS_KEY).toBe(key);
});

test("users and their tokens came along: root's and alice's tokens still authenticate", async () => {
  const me = await alice.get("/user");
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ id: 2, username: "alice", name: "Alice Liddell", email: "alice@example.com" });
  const users = await root.get("/users", { query: { order_by: "id", sort: "asc" } });
  expect(users.status).toBe(200);
  expect((users.body as { username: string }[]).map((u) => u.username)).toEqual(["root", "alice"]);
});

test("groups, projects and memberships came along", async () => {
  const projects = await root.get("/projects", { query: { order_by: "id", sort: "asc" } });
  expect(projects.status).toBe(200);
  expect((projects.body as { path_with_namespace: string; visibility: string; description: string | null }[]).map((p) => [p.path_with_namespace, p.visibility, p.description])).toEqual([
    ["looking-glass/tea-party", "private", "Mad hatter things"],
    ["alice/rabbit-hole", "public", null],
  ]);
  const members = await root.get("/projects/1/members");
  expect((members.body as { username: string; access_level: number }[]).map((m) => [m.username, m.access_level])).toEqual([
    ["root", 40],
    ["alice", 30],
  ]);
  // Membership still decides access: alice sees the private project.
  expect((await alice.get("/projects/looking-glass%2Ftea-party")).status).toBe(200);
});

test("issues came along with labels, milestone, assignees, state and every line of their text", async () => {
  const list = await root.get("/projects/1/issues", { query: { order_by: "created_at", sort: "asc" } });
  expect(list.status).toBe(200);
  const [first, second] = list.body as Record<string, unknown>[];
  expect(first).toMatchObject({
    iid: 1,
    title: "Why is a raven like a writing-desk?",
    // A line beginning with "\restrict" is where pglite-tools' own dump would have cut the text.
    description: "Line one\n\\restrict looks like psql\n« unicode » ☕ and 'quotes'",
    labels: ["bug"],
    milestone: expect.objectContaining({ title: "v1.0", due_date: "2027-01-31" }),
    assignees: [expect.objectContaining({ username: "alice" })],
    state: "opened",
  });
  expect(second).toMatchObject({ iid: 2, title: "Second issue", confidential: true, state: "closed" });
});

test("notes and discussions came along with their authors", async () => {
  const notes = await root.get("/projects/1/issues/1/notes", { query: { sort: "asc", order_by: "created_at" } });
  expect(notes.status).toBe(200);
  expect((notes.body as { body: string; author: { username: string } }[]).filter((n) => !("system" in n && n.system)).map((n) => [n.author.username, n.body])).toEqual([
    ["alice", "I have no idea — said Alice.\nSecond line"],
    ["root", "Nor I, said the Hatter."],
  ]);
  const discussions = await root.get("/projects/1/issues/1/discussions");
  expect((discussions.body as { individual_note: boolean; notes: { body: string }[] }[]).find((d) => !d.individual_note)?.notes.map((n) => n.body)).toEqual(["A thread"]);
});

test("sequences continue where PGlite left them: new rows get fresh ids and iids", async () => {
  const issue = await alice.post("/projects/1/issues", { json: { title: "After the move" } });
  expect(issue.status).toBe(201);
  expect(issue.body).toMatchObject({ iid: 3, id: 3 });
  const note = await alice.post("/projects/1/issues/3/notes", { json: { body: "still writing" } });
  expect(note.status).toBe(201);
  expect((note.body as { id: number }).id).toBeGreaterThan(3);
  const user = await root.post("/users", { json: { username: "hatter", name: "Hatter", email: "hatter@example.com", password: "Tea-time-always-6!", skip_confirmation: true } });
  expect(user.status).toBe(201);
  expect((user.body as { id: number }).id).toBe(3);
});

test("a restart keeps everything and imports nothing again, even if a PGlite folder reappears", async () => {
  const key = fs.readFileSync(secretsKeyFile(), "utf8");
  await app!.stop();
  app = undefined;
  extractFixture(dir); // the folder is back (say, restored from a backup): it must not be merged in
  app = await start();
  const issues = await root.get("/projects/1/issues");
  expect((issues.body as { title: string }[]).map((i) => i.title)).toContain("After the move");
  expect(fs.existsSync(path.join(dir, "pglite"))).toBe(true); // left where it was
  // The same secrets key, read back from its file.
  expect(fs.readFileSync(secretsKeyFile(), "utf8")).toBe(key);
  expect(process.env.SECRETS_KEY).toBe(key.trim());
});
