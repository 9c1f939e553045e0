import { addMember, apiClient, assertStatus as ok, cloneUrl, eventually, GitClient, type ApiClient, type TestApp } from "@collab/testing";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Comments on commits (GitLab's commits API: Commits.createComment / allComments) and commit
 * discussions (CommitDiscussions), with @gitbeaker/rest and raw HTTP: who reads and who writes on
 * private and public projects, what a commit is (sha, branch or tag of the project), diff notes
 * whose position names the commit's diff, and the comment in the project's events.
 */
let app: TestApp;
let anonymous: ApiClient;
let git: GitClient;
let clones = 0;
beforeAll(async () => {
  app = await startApp("commit-notes");
  anonymous = apiClient(app.url);
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});
beforeEach(() => app.reset());

const ROLES = { guest: 10, reporter: 20, developer: 30, maintainer: 40 } as const;
type Role = keyof typeof ROLES | "owner" | "outsider";

interface World {
  projectId: number;
  users: Record<Role, GitbeakerUser>;
  /** main's head (a commit with a parent) and its parent. */
  sha: string;
  parent: string;
  comments: string;
  discussions: string;
}

async function world(visibility: "private" | "public"): Promise<World> {
  const names: Role[] = ["owner", "maintainer", "developer", "reporter", "guest", "outsider"];
  const list = await Promise.all(names.map((n) => createGitbeakerUser(app, n)));
  const users = Object.fromEntries(names.map((n, i) => [n, list[i]])) as Record<Role, GitbeakerUser>;
  // Pushed while private: git sends its credentials only when asked (a 401), and a public project's push is refused without asking.
  const project = await users.owner.gl.Projects.create({ name: "Ledger", visibility: "private", initializeWithReadme: true });
  const projectId = project.id as number;
  for (const [role, level] of Object.entries(ROLES)) await addMember(app, "projects", projectId, users[role as Role].id, level);
  const parent = (await users.owner.gl.Branches.show(projectId, "main")).commit.id as string;
  // A real commit on main, pushed with git.
  const dir = git.dir(`ledger-${++clones}`);
  await git.ok(["clone", "-q", cloneUrl(app.url, project.path_with_namespace as string, { username: users.owner.username, password: users.owner.token }), dir]);
  writeFileSync(path.join(dir, "totals.rb"), "sum");
  await git.ok(["add", "totals.rb"], { cwd: dir });
  await git.ok(["commit", "-q", "-m", "Add ledger totals"], { cwd: dir });
  await git.ok(["push", "-q", "origin", "main"], { cwd: dir });
  const sha = (await git.ok(["rev-parse", "HEAD"], { cwd: dir })).trim();
  expect((await users.owner.gl.Branches.show(projectId, "main")).commit.id).toBe(sha);
  if (visibility !== "private") await users.owner.gl.Projects.edit(projectId, { visibility });
  const base = `/projects/${projectId}/repository/commits/${sha}`;
  return { projectId, users, sha, parent, comments: `${base}/comments`, discussions: `${base}/discussions` };
}

const api = (u: GitbeakerUser) => u.api;
const clientOf = (w: World, who: Role | "anonymous") => (who === "anonymous" ? anonymous : api(w.users[who]));

type Matrix = Record<Role | "anonymous", [read: number, write: number]>;
const MEMBERS_READ_AND_WRITE = { reporter: [200, 201], developer: [200, 201], maintainer: [200, 201], owner: [200, 201] } satisfies Partial<Matrix>;

/** GET `path` and POST a comment (`field`: its text param) to it as each caller, in the matrix's order. */
async function expectMatrix(w: World, path: string, field: "note" | "body", expected: Matrix) {
  for (const [who, [read, write]] of Object.entries(expected) as [Role | "anonymous", [number, number]][]) {
    const client = clientOf(w, who);
    const got = { who, read: (await client.get(path)).status, write: (await client.post(path, { json: { [field]: `by ${who}` } })).status };
    expect(got).toEqual({ who, read, write });
  }
}

describe("commit comments", () => {
  it("comments on a commit by sha or by branch, and lists every comment oldest first", async () => {
    const w = await world("private");
    const dev = w.users.developer.gl;
    const first = await dev.Commits.createComment(w.projectId, w.sha, "Totals look right");
    expect(first).toEqual({
      note: "Totals look right",
      path: null,
      line: null,
      line_type: null,
      author: expect.objectContaining({ username: "developer" }),
      created_at: expect.any(String),
    });
    // main's head is the same commit; a line comment on a line the commit's diff lacks stays a plain comment, as in GitLab.
    const second = await w.users.maintainer.gl.Commits.createComment(w.projectId, "main", "Rename the file", { path: "totals.rb", line: 1, lineType: "new" });
    expect(second).toMatchObject({ note: "Rename the file", author: expect.objectContaining({ username: "maintainer" }) });

    const all = await w.users.reporter.gl.Commits.allComments(w.projectId, w.sha);
    expect(all.map((c) => [c.note, c.author.username])).toEqual([
      ["Totals look right", "developer"],
      ["Rename the file", "maintainer"],
    ]);
    // A tag or a short sha names the same commit.
    await w.users.owner.gl.Tags.create(w.projectId, "v1.0", w.sha);
    expect(await dev.Commits.allComments(w.projectId, "v1.0")).toHaveLength(2);
    expect(await dev.Commits.allComments(w.projectId, w.sha.slice(0, 8))).toHaveLength(2);
    // The parent commit has none of them.
    expect(await dev.Commits.allComments(w.projectId, w.parent)).toEqual([]);

    const paged = ok(await api(w.users.reporter).get(`${w.comments}?per_page=1&page=2`), 200, "page 2");
    expect(paged.body.map((c: { note: string }) => c.note)).toEqual(["Rename the file"]);
    expect(paged.headers.get("x-total")).toBe("2");
  });

  it("answers 404 Commit Not Found for an unknown sha or another project's commit, and GitLab's 400s", async () => {
    const w = await world("private");
    const owner = api(w.users.owner);
    const other = await w.users.owner.gl.Projects.create({ name: "Other", visibility: "private", initializeWithReadme: true });
    const foreign = (await w.users.owner.gl.Branches.show(other.id as number, "main")).commit.id as string;
    const notFound = { message: "404 Commit Not Found" };
    for (const sha of ["0123456789abcdef0123456789abcdef01234567", "no-such-branch", foreign]) {
      const base = `/projects/${w.projectId}/repository/commits/${sha}`;
      expect((await owner.get(`${base}/comments`)).body).toEqual(notFound);
      expect(await owner.post(`${base}/comments`, { json: { note: "x" } })).toMatchObject({ status: 404, body: notFound });
      expect(await owner.get(`${base}/discussions`)).toMatchObject({ status: 404, body: notFound });
    }
    expect(await owner.post(w.comments, { json: {} })).toMatchObject({ status: 400, body: { error: "note is missing" } });
    expect(await owner.post(w.comments, { json: { note: "x", path: "a.rb" } })).toMatchObject({ status: 400, body: { error: "line is missing" } });
    expect(await owner.post(w.comments, { json: { note: "x", path: "a.rb", line: 1, line_type: "mid" } })).toMatchObject({
      status: 400,
      body: { error: "line_type does not have a valid value" },
    });
    expect(await owner.post(w.comments, { json: { note: "  " } })).toMatchObject({ status: 400, body: { message: `Failed to save note {:note=>["can't be blank"]}` } });
    expect(await owner.post(w.comments, { json: { note: "x".repeat(1_000_001) } })).toMatchObject({
      status: 400,
      body: { message: `Failed to save note {:note=>["is too long (maximum is 1000000 characters)"]}` },
    });
  });

  it("private project: Reporters and up read and comment; a Guest gets 403, an outsider 404, anonymous 404 and 401", async () => {
    const w = await world("private");
    await expectMatrix(w, w.comments, "note", { anonymous: [404, 401], outsider: [404, 404], guest: [403, 403], ...MEMBERS_READ_AND_WRITE });
    const notes = await w.users.owner.gl.Commits.allComments(w.projectId, w.sha);
    expect(notes.map((n) => n.note)).toEqual(["by reporter", "by developer", "by maintainer", "by owner"]);
  });

  it("a repository limited to members: a non-member of a public project gets 403 reading or commenting", async () => {
    const w = await world("public");
    ok(await api(w.users.owner).put(`/projects/${w.projectId}`, { json: { repository_access_level: "private" } }), 200, "limit the repository");
    expect(await anonymous.get(w.comments)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await api(w.users.outsider).post(w.comments, { json: { note: "x" } })).status).toBe(403);
    expect(await failureStatus(w.users.guest.gl.Commits.createComment(w.projectId, w.sha, "members may"))).toBe("no failure");
  });

  it("public project: everybody reads, every signed-in user comments", async () => {
    const w = await world("public");
    expect(ok(await anonymous.get(w.comments), 200, "anonymous read").body).toEqual([]);
    expect((await anonymous.post(w.comments, { json: { note: "hi" } })).status).toBe(401);
    for (const who of ["outsider", "guest", "reporter", "developer", "maintainer", "owner"] as const)
      expect({ who, status: await failureStatus(w.users[who].gl.Commits.createComment(w.projectId, w.sha, `by ${who}`)) }).toEqual({ who, status: "no failure" });
    expect((await w.users.outsider.gl.Commits.allComments(w.projectId, w.sha)).length).toBe(6);
  });
});

describe("commit discussions", () => {
  it("threads on a commit: create, list, get, reply, get, edit and delete a note", async () => {
    const w = await world("private");
    const dev = w.users.developer.gl;
    const thread = await dev.CommitDiscussions.create(w.projectId, w.sha, "Why sum here?");
    expect(thread).toMatchObject({
      individual_note: false,
      notes: [
        {
          type: "DiscussionNote",
          body: "Why sum here?",
          noteable_type: "Commit",
          noteable_id: null,
          noteable_iid: null,
          commit_id: w.sha,
          project_id: w.projectId,
          resolvable: false,
          author: expect.objectContaining({ username: "developer" }),
        },
      ],
    });
    const threadId = thread.id as string;
    const reply = await w.users.reporter.gl.CommitDiscussions.addNote(w.projectId, w.sha, threadId, "Because totals");
    expect(reply).toMatchObject({ type: "DiscussionNote", body: "Because totals", commit_id: w.sha });

    const listed = await w.users.maintainer.gl.CommitDiscussions.all(w.projectId, w.sha);
    expect(listed.map((d) => [d.id, d.notes!.map((n) => n.body)])).toEqual([[threadId, ["Why sum here?", "Because totals"]]]);
    expect((await dev.CommitDiscussions.show(w.projectId, w.sha, threadId)).notes!.length).toBe(2);
    const note = ok(await api(w.users.owner).get(`${w.discussions}/${threadId}/notes/${reply.id}`), 200, "note").body;
    expect(note).toMatchObject({ id: reply.id, body: "Because totals" });
    // The commit's comments list shows the thread's notes too, as GitLab's commit.notes.
    expect((await dev.Commits.allComments(w.projectId, w.sha)).map((c) => c.note)).toEqual(["Why sum here?", "Because totals"]);

    // Only the author edits; the author or a Maintainer deletes; commit threads are not resolvable.
    expect(await failureStatus(dev.CommitDiscussions.editNote(w.projectId, w.sha, threadId, reply.id as number, { body: "mine now" }))).toBe(403);
    const edited = await w.users.reporter.gl.CommitDiscussions.editNote(w.projectId, w.sha, threadId, reply.id as number, { body: "Because of totals" });
    expect(edited).toMatchObject({ body: "Because of totals" });
    expect(await api(w.users.developer).put(`${w.discussions}/${threadId}/notes/${reply.id}`, { json: { resolved: true } })).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - Note is not resolvable" },
    });
    expect((await api(w.users.owner).put(`${w.discussions}/${threadId}`, { json: { resolved: true } })).status).toBe(404);
    expect(await failureStatus(dev.CommitDiscussions.removeNote(w.projectId, w.sha, threadId, reply.id as number))).toBe(403);
    await w.users.maintainer.gl.CommitDiscussions.removeNote(w.projectId, w.sha, threadId, reply.id as number);
    await dev.CommitDiscussions.removeNote(w.projectId, w.sha, threadId, thread.notes![0].id as number);
    expect(await dev.CommitDiscussions.all(w.projectId, w.sha)).toEqual([]);
    expect(await failureStatus(dev.CommitDiscussions.show(w.projectId, w.sha, threadId))).toBe(404);
  });

  it("a thread or note of another commit is 404", async () => {
    const w = await world("private");
    const thread = await w.users.developer.gl.CommitDiscussions.create(w.projectId, w.sha, "On the head");
    const onParent = `/projects/${w.projectId}/repository/commits/${w.parent}/discussions/${thread.id}`;
    const dev = api(w.users.developer);
    expect(await dev.get(onParent)).toMatchObject({ status: 404, body: { message: "404 Discussion Not Found" } });
    expect(await dev.get(`${onParent}/notes/${thread.notes![0].id}`)).toMatchObject({ status: 404, body: { message: "404 Note Not Found" } });
    expect((await dev.put(`${onParent}/notes/${thread.notes![0].id}`, { json: { body: "x" } })).status).toBe(404);
    expect((await dev.delete(`${onParent}/notes/${thread.notes![0].id}`)).status).toBe(404);
    expect((await dev.post(`${onParent}/notes`, { json: { body: "x" } })).status).toBe(404);
  });

  it("a thread on a diff line (DiffNote): its position must be complete and name the commit's diff", async () => {
    const w = await world("private");
    const position = { baseSha: w.parent, startSha: w.parent, headSha: w.sha, positionType: "text", newPath: "totals.rb", newLine: "1" };
    const thread = await w.users.developer.gl.CommitDiscussions.create(w.projectId, w.sha, "Off by one", { position: position as never });
    expect(thread.notes![0]).toMatchObject({
      type: "DiffNote",
      position: expect.objectContaining({ base_sha: w.parent, head_sha: w.sha, position_type: "text", new_path: "totals.rb", new_line: 1 }),
    });
    expect((await w.users.developer.gl.Commits.allComments(w.projectId, w.sha))[0]).toMatchObject({ note: "Off by one", path: "totals.rb", line: 1, line_type: "new" });
    const reply = await w.users.reporter.gl.CommitDiscussions.addNote(w.projectId, w.sha, thread.id as string, "Fixed");
    expect(reply).toMatchObject({ type: "DiffNote", position: expect.objectContaining({ new_path: "totals.rb" }) });

    const dev = api(w.users.developer);
    const post = (pos: Record<string, unknown>) => dev.post(w.discussions, { json: { body: "x", position: pos } });
    const good = { base_sha: w.parent, start_sha: w.parent, head_sha: w.sha, position_type: "text" };
    expect(await post({ ...good, head_sha: w.parent })).toMatchObject({ status: 400, body: { message: `400 Bad request - Note {:commit_id=>["does not match the diff refs"]}` } });
    // The shape GitLab's params declare: the diff refs and position_type required, lines integers.
    expect(await post({ start_sha: w.parent, head_sha: w.sha, position_type: "text" })).toMatchObject({ status: 400, body: { error: "position[base_sha] is missing" } });
    expect(await post({ ...good, position_type: "line" })).toMatchObject({ status: 400, body: { error: "position[position_type] does not have a valid value" } });
    expect(await post({ ...good, new_line: "first" })).toMatchObject({ status: 400, body: { error: "position[new_line] is invalid" } });
    expect(await dev.get(w.discussions).then((r) => r.body.length)).toBe(1);
    // Commits take no internal notes.
    expect(await dev.post(w.discussions, { json: { body: "psst", internal: true } })).toMatchObject({
      status: 400,
      body: { message: `400 Bad request - Note {:confidential=>["can not be set for this resource"]}` },
    });
  });

  it("private project: Reporters and up; a Guest sees 404 Commit Not Found, an outsider 404, anonymous 401", async () => {
    const w = await world("private");
    await expectMatrix(w, w.discussions, "body", { anonymous: [401, 401], outsider: [404, 404], guest: [404, 404], ...MEMBERS_READ_AND_WRITE });
    expect((await api(w.users.guest).get(w.discussions)).body).toEqual({ message: "404 Commit Not Found" });
    expect((await w.users.owner.gl.CommitDiscussions.all(w.projectId, w.sha)).length).toBe(4);
  });

  it("public project: every signed-in user reads and starts threads", async () => {
    const w = await world("public");
    for (const who of ["outsider", "guest", "reporter", "developer", "maintainer", "owner"] as const) {
      const gl = w.users[who].gl;
      expect({ who, status: await failureStatus(gl.CommitDiscussions.create(w.projectId, w.sha, `by ${who}`)) }).toEqual({ who, status: "no failure" });
    }
    expect((await w.users.outsider.gl.CommitDiscussions.all(w.projectId, w.sha)).length).toBe(6);
  });
});

describe("events", () => {
  it("a comment on a commit is 'commented on' in the project's events, its note on the Commit", async () => {
    const w = await world("private");
    const comment = await w.users.developer.gl.Commits.createComment(w.projectId, w.sha, "Shipped");
    expect(comment.note).toBe("Shipped");
    const events = await eventually(async () => {
      const res = ok(await api(w.users.owner).get(`/projects/${w.projectId}/events?action=commented`), 200, "events");
      if (!res.body.length) throw new Error("no comment event yet");
      return res.body;
    });
    expect(events[0]).toMatchObject({
      action_name: "commented on",
      target_type: "Note",
      author: expect.objectContaining({ username: "developer" }),
      note: { body: "Shipped", noteable_type: "Commit", noteable_id: null, noteable_iid: null, commit_id: w.sha },
    });
  });
});
