import { apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Snippets with the real @gitbeaker/rest client: a team shares project snippets, people keep
 * personal ones, and who may read or change which follows GitLab's snippet policies.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("snippets-gitbeaker");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

type Api = GitbeakerUser["gl"];
const ROLES = { guest: 10, reporter: 20, developer: 30, maintainer: 40 } as const;

test("a project snippet's life: create, list, get, raw, edit its files, delete", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const bob = await createGitbeakerUser(app, "bob");
  const project = await alice.gl.Projects.create({ name: "Tools", visibility: "private" });
  await alice.gl.ProjectMembers.add(project.id, ROLES.reporter, { userId: bob.id });

  const snippet = await bob.gl.ProjectSnippets.create(project.id, "Deploy script", {
    visibility: "private",
    description: "How we deploy",
    files: [
      { file_path: "deploy.sh", content: "#!/bin/sh\necho deploy\n" },
      { file_path: "conf/app.env", content: "MODE=prod\n" },
    ],
  } as never);
  expect(snippet).toMatchObject({
    title: "Deploy script",
    description: "How we deploy",
    visibility: "private",
    project_id: project.id,
    author: { username: "bob" },
    file_name: "deploy.sh",
    files: [
      { path: "deploy.sh", raw_url: `${project.web_url}/-/snippets/${snippet.id}/raw/main/deploy.sh` },
      { path: "conf/app.env", raw_url: `${project.web_url}/-/snippets/${snippet.id}/raw/main/conf/app.env` },
    ],
    web_url: `${project.web_url}/-/snippets/${snippet.id}`,
    raw_url: `${project.web_url}/-/snippets/${snippet.id}/raw`,
    http_url_to_repo: `${new URL(project.web_url).origin}/${project.path_with_namespace}/snippets/${snippet.id}.git`,
    imported: false,
    imported_from: "none",
  });
  expect(snippet).not.toHaveProperty("repository_storage");

  // The single-file form of the older API.
  const single = await alice.gl.ProjectSnippets.create(project.id, "Notes", { visibility: "internal", fileName: "notes.md", content: "# Notes" } as never);
  expect(single).toMatchObject({ file_name: "notes.md", files: [{ path: "notes.md" }] });

  expect((await alice.gl.ProjectSnippets.all(project.id)).map((s) => s.title)).toEqual(["Notes", "Deploy script"]);
  expect(await alice.gl.ProjectSnippets.show(project.id, snippet.id)).toEqual(snippet);
  expect(await alice.gl.ProjectSnippets.showContent(project.id, snippet.id)).toBe("#!/bin/sh\necho deploy\n");
  expect(await alice.gl.ProjectSnippets.showRepositoryFileContent(project.id, snippet.id, "main", "conf/app.env")).toBe("MODE=prod\n");

  const raw = await root.get(`/projects/${project.id}/snippets/${snippet.id}/raw`);
  expect(raw.status).toBe(200);
  expect(raw.headers.get("content-type")).toMatch(/^text\/plain/);
  expect((await root.get(`/projects/${project.id}/snippets/${snippet.id}/files/main/missing.txt/raw`)).body).toEqual({ message: "404 File Not Found" });

  // Files change as GitLab's file actions say; the snippet's updated_at moves.
  const edited = await bob.gl.ProjectSnippets.edit(project.id, snippet.id, {
    title: "Deploy",
    files: [
      { action: "update", file_path: "deploy.sh", content: "#!/bin/sh\necho v2\n" },
      { action: "move", previous_path: "conf/app.env", file_path: "prod.env" },
      { action: "create", file_path: "README.md", content: "run it" },
    ],
  } as never);
  expect(edited).toMatchObject({ title: "Deploy", files: [{ path: "deploy.sh" }, { path: "prod.env" }, { path: "README.md" }] });
  expect(Date.parse(edited.updated_at as string)).toBeGreaterThanOrEqual(Date.parse(snippet.updated_at as string));
  expect(await bob.gl.ProjectSnippets.showRepositoryFileContent(project.id, snippet.id, "main", "prod.env")).toBe("MODE=prod\n");
  const deleted = await bob.gl.ProjectSnippets.edit(project.id, snippet.id, { files: [{ action: "delete", file_path: "README.md" }] } as never);
  expect(deleted.files).toHaveLength(2);

  // Bad file actions are the client's fault, and change nothing.
  const missingFile = await root.put(`/projects/${project.id}/snippets/${snippet.id}`, { json: { files: [{ action: "update", file_path: "nope.txt", content: "x" }] } });
  expect(missingFile.status).toBe(400);
  const emptied = await root.put(`/projects/${project.id}/snippets/${snippet.id}`, {
    json: { files: [{ action: "delete", file_path: "deploy.sh" }, { action: "delete", file_path: "prod.env" }] },
  });
  expect(emptied.status).toBe(400);
  expect((await root.put(`/projects/${project.id}/snippets/${snippet.id}`, { json: {} })).status).toBe(400);
  expect((await root.post(`/projects/${project.id}/snippets`, { json: { title: "x", visibility: "public" } })).status).toBe(400);
  expect((await root.post(`/projects/${project.id}/snippets`, { json: { title: "x", visibility: "secret", content: "a" } })).status).toBe(400);
  expect((await alice.gl.ProjectSnippets.show(project.id, snippet.id)).files).toHaveLength(2);

  await bob.gl.ProjectSnippets.remove(project.id, snippet.id);
  expect(await failureStatus(alice.gl.ProjectSnippets.show(project.id, snippet.id))).toBe(404);
  expect((await alice.gl.ProjectSnippets.all(project.id)).map((s) => s.id)).toEqual([single.id]);
});

test("a snippet is only reached through its own project", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const mine = await alice.gl.Projects.create({ name: "Mine", visibility: "public" });
  const other = await alice.gl.Projects.create({ name: "Other", visibility: "public" });
  const snippet = await alice.gl.ProjectSnippets.create(other.id, "Elsewhere", { visibility: "public", content: "x", fileName: "x.txt" } as never);
  for (const [method, suffix] of [
    ["GET", ""],
    ["GET", "/raw"],
    ["PUT", ""],
    ["DELETE", ""],
  ] as const) {
    const res = await root[method === "GET" ? "get" : method === "PUT" ? "put" : "delete"](`/projects/${mine.id}/snippets/${snippet.id}${suffix}`, { json: method === "PUT" ? { title: "moved" } : undefined });
    expect([method, suffix, res.status, res.body]).toEqual([method, suffix, 404, { message: "404 Snippet Not Found" }]);
  }
  expect((await alice.gl.ProjectSnippets.show(other.id, snippet.id)).title).toBe("Elsewhere");
  expect((await root.get(`/snippets/${snippet.id}`)).status).toBe(404);
});

describe("who may read and change project snippets", () => {
  interface World {
    owner: GitbeakerUser;
    users: Record<"guest" | "reporter" | "developer" | "maintainer" | "outsider", GitbeakerUser>;
  }

  async function world(): Promise<World> {
    const owner = await createGitbeakerUser(app, "owner");
    const users = {
      guest: await createGitbeakerUser(app, "guest"),
      reporter: await createGitbeakerUser(app, "reporter"),
      developer: await createGitbeakerUser(app, "developer"),
      maintainer: await createGitbeakerUser(app, "maintainer"),
      outsider: await createGitbeakerUser(app, "outsider"),
    };
    return { owner, users };
  }

  async function projectWithMembers(w: World, visibility: "private" | "public") {
    const project = await w.owner.gl.Projects.create({ name: `P ${visibility}`, visibility });
    for (const role of ["guest", "reporter", "developer", "maintainer"] as const) await w.owner.gl.ProjectMembers.add(project.id, ROLES[role], { userId: w.users[role].id });
    return project;
  }

  const anonymous = () => apiClient(app.url).as(null);
  const status = async (api: Api, call: (api: Api) => Promise<unknown>) => failureStatus(call(api));

  test.each(["private", "public"] as const)("on a %s project", async (projectVisibility) => {
    const w = await world();
    const project = await projectWithMembers(w, projectVisibility);
    const pid = project.id;
    const made: Record<string, number> = {};
    for (const v of ["private", "internal", "public"] as const) {
      made[v] = (await w.owner.gl.ProjectSnippets.create(pid, `${v} one`, { visibility: v, content: v, fileName: `${v}.txt` } as never)).id;
    }

    // Reading: members see all, others what the snippet's and the project's visibility allow.
    const reads = async (api: Api) => (await api.ProjectSnippets.all(pid)).map((s) => s.title).sort();
    const everything = ["internal one", "private one", "public one"];
    for (const role of ["guest", "reporter", "developer", "maintainer"] as const) expect([role, await reads(w.users[role].gl)]).toEqual([role, everything]);
    if (projectVisibility === "public") {
      expect(await reads(w.users.outsider.gl)).toEqual(["internal one", "public one"]);
      expect(await status(w.users.outsider.gl, (a) => a.ProjectSnippets.show(pid, made.private))).toBe(404);
      const anon = await anonymous().get(`/projects/${pid}/snippets`);
      expect([anon.status, anon.body.map((s: { title: string }) => s.title)]).toEqual([200, ["public one"]]);
      expect((await anonymous().get(`/projects/${pid}/snippets/${made.internal}`)).status).toBe(404);
      expect((await anonymous().get(`/projects/${pid}/snippets/${made.public}/raw`)).text).toBe("public");
    } else {
      expect(await status(w.users.outsider.gl, (a) => a.ProjectSnippets.all(pid))).toBe(404);
      expect(await status(w.users.outsider.gl, (a) => a.ProjectSnippets.show(pid, made.public))).toBe(404);
      expect((await anonymous().get(`/projects/${pid}/snippets/${made.public}`)).status).toBe(404);
    }

    // Creating: Reporters and above; Guests are refused; anonymous callers must sign in.
    const create = (api: Api) => api.ProjectSnippets.create(pid, "new", { visibility: "private", content: "c", fileName: "c.txt" } as never);
    expect(await status(w.users.guest.gl, create)).toBe(403);
    expect(await status(w.users.outsider.gl, create)).toBe(projectVisibility === "public" ? 403 : 404);
    expect((await anonymous().post(`/projects/${pid}/snippets`, { json: { title: "x", visibility: "public", content: "x" } })).status).toBe(401);
    const byReporter = await create(w.users.reporter.gl);
    expect(byReporter.author).toMatchObject({ username: "reporter" });

    // Changing: the author (a Reporter or above) and Maintainers; nobody else, whatever their role.
    const rename = (id: number) => (api: Api) => api.ProjectSnippets.edit(pid, id, { title: "renamed" });
    expect(await status(w.users.developer.gl, rename(byReporter.id))).toBe(403);
    expect(await status(w.users.guest.gl, rename(made.public))).toBe(403);
    expect(await status(w.users.reporter.gl, rename(made.public))).toBe(403);
    expect(await status(w.users.reporter.gl, rename(byReporter.id))).toBe("no failure");
    expect(await status(w.users.maintainer.gl, rename(made.public))).toBe("no failure");
    expect(await status(w.owner.gl, rename(byReporter.id))).toBe("no failure");
    expect(await status(w.users.outsider.gl, rename(made.public))).toBe(projectVisibility === "public" ? 403 : 404);
    expect(await status(w.users.outsider.gl, rename(made.private))).toBe(404);
    expect((await anonymous().put(`/projects/${pid}/snippets/${made.public}`, { json: { title: "x" } })).status).toBe(401);

    // Deleting follows the same rule.
    expect(await status(w.users.developer.gl, (a) => a.ProjectSnippets.remove(pid, made.public))).toBe(403);
    expect(await status(w.users.maintainer.gl, (a) => a.ProjectSnippets.remove(pid, made.public))).toBe("no failure");
    expect(await status(w.users.reporter.gl, (a) => a.ProjectSnippets.remove(pid, byReporter.id))).toBe("no failure");

    // Spam review data: administrators only.
    expect(await status(w.owner.gl, (a) => a.ProjectSnippets.showUserAgentDetails(pid, made.private))).toBe(403);
    const detail = await root.get(`/projects/${pid}/snippets/${made.private}/user_agent_detail`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({ user_agent: expect.stringMatching(/.+/), ip_address: expect.stringMatching(/.+/), akismet_submitted: false });
    expect((await root.get(`/projects/${pid}/snippets/${made.private}`)).body).toMatchObject({ repository_storage: "default" });
  });

  test("a project with snippets disabled hides them; private snippets feature hides them from non-members", async () => {
    const w = await world();
    const project = await projectWithMembers(w, "public");
    const s = await w.owner.gl.ProjectSnippets.create(project.id, "s", { visibility: "public", content: "c", fileName: "c.txt" } as never);
    await w.owner.gl.Projects.edit(project.id, { snippetsAccessLevel: "private" } as never);
    expect(await status(w.users.outsider.gl, (a) => a.ProjectSnippets.show(project.id, s.id))).toBe(404);
    expect((await w.users.guest.gl.ProjectSnippets.show(project.id, s.id)).id).toBe(s.id);
    await w.owner.gl.Projects.edit(project.id, { snippetsAccessLevel: "disabled" } as never);
    expect(await status(w.owner.gl, (a) => a.ProjectSnippets.all(project.id))).toBe(404);
    expect(await status(w.owner.gl, (a) => a.ProjectSnippets.create(project.id, "n", { visibility: "public", content: "c" } as never))).toBe(404);
  });
});

test("personal snippets: mine, public, all, and who reaches each", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const bob = await createGitbeakerUser(app, "bob");
  const external = await createGitbeakerUser(app, "ext", { external: true });

  const secret = await alice.gl.Snippets.create("Secret", { files: [{ file_path: "a.txt", content: "only me" }], visibility: "private" } as never);
  const internal = await alice.gl.Snippets.create("Team", { fileName: "t.txt", content: "staff" } as never);
  const open = await alice.gl.Snippets.create("Open", { fileName: "o.txt", content: "everyone", visibility: "public" } as never);
  const web = internal.web_url as string;
  expect(web).toMatch(new RegExp(`^https?://[^/]+/-/snippets/${internal.id}$`));
  expect(internal).toMatchObject({ visibility: "internal", project_id: null, raw_url: `${web}/raw`, http_url_to_repo: `${new URL(web).origin}/snippets/${internal.id}.git` });

  expect((await alice.gl.Snippets.all()).map((s) => s.title)).toEqual(["Open", "Team", "Secret"]);
  expect(await bob.gl.Snippets.all()).toEqual([]);
  expect((await bob.gl.Snippets.all({ public: true })).map((s) => s.title)).toEqual(["Open"]);
  const seenByBob = await apiClient(app.url, bob.token).get("/snippets/all");
  expect(seenByBob.body.map((s: { title: string }) => s.title)).toEqual(["Open", "Team"]);
  expect((await apiClient(app.url, external.token).get("/snippets/all")).body.map((s: { title: string }) => s.title)).toEqual(["Open"]);
  expect((await root.get("/snippets/all")).body.map((s: { title: string }) => s.title)).toEqual(["Open", "Team", "Secret"]);

  expect(await bob.gl.Snippets.showContent(internal.id)).toBe("staff");
  expect(await bob.gl.Snippets.showRepositoryFileContent(open.id, "main", "o.txt")).toBe("everyone");
  expect(await failureStatus(bob.gl.Snippets.show(secret.id))).toBe(404);
  expect(await failureStatus(external.gl.Snippets.show(internal.id))).toBe(404);
  const anon = apiClient(app.url).as(null);
  expect((await anon.get(`/snippets/${open.id}/raw`)).text).toBe("everyone");
  expect((await anon.get(`/snippets/${internal.id}`)).status).toBe(404);
  expect((await anon.get("/snippets")).status).toBe(401);
  expect((await anon.post("/snippets", { json: { title: "x", content: "y" } })).status).toBe(401);

  // Only the author (or an administrator) changes or deletes one.
  expect(await failureStatus(bob.gl.Snippets.edit(open.id, { title: "mine now" }))).toBe(403);
  expect(await failureStatus(bob.gl.Snippets.remove(secret.id))).toBe(404);
  expect(await failureStatus(bob.gl.Snippets.remove(open.id))).toBe(403);
  const renamed = await alice.gl.Snippets.edit(open.id, { title: "Open to all", content: "everyone!", fileName: "open.txt" } as never);
  expect(renamed).toMatchObject({ title: "Open to all", file_name: "open.txt" });
  expect(await anon.get(`/snippets/${open.id}/raw`)).toMatchObject({ text: "everyone!" });
  await alice.gl.Snippets.remove(secret.id);
  expect(await failureStatus(alice.gl.Snippets.show(secret.id))).toBe(404);
  expect((await root.delete(`/snippets/${internal.id}`)).status).toBe(204);

  // Who submitted a snippet, for administrators: the request's user agent, never one the body claims.
  const submitted = await apiClient(app.url, alice.token).post("/snippets", {
    headers: { "User-Agent": "snippet-cli/1.0" },
    json: { title: "Spam?", content: "buy", visibility: "public", client_info: { user_agent: "forged", ip_address: "1.2.3.4" } },
  });
  expect(submitted.status).toBe(201);
  expect(await failureStatus(alice.gl.Snippets.showUserAgentDetails(submitted.body.id))).toBe(403);
  const detail = await root.get(`/snippets/${submitted.body.id}/user_agent_detail`);
  expect(detail.body).toEqual({ user_agent: "snippet-cli/1.0", ip_address: expect.not.stringMatching(/^1\.2\.3\.4$/), akismet_submitted: false });
});
