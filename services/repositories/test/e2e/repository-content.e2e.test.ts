process.env.STORAGE_MOVE_TICK_MS ??= "0";
import { Admin } from "@collab/admin-contract";
import { call } from "@collab/core";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";
import { apiClient, GitClient, type ApiClient, type TestApp } from "@collab/testing";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * GitLab's repositories API on real repositories through @gitbeaker/rest: the tree (offset and
 * keyset pages), blobs, compare, archives and contributors, on a project of the `default`
 * storage and on one of `other` (served by another replica in the distributed pass).
 */
let app: TestApp;
let root: ApiClient;
let alice: GitbeakerUser;
let guest: GitbeakerUser;
let outsider: GitbeakerUser;
const scratch = mkdtempSync(path.join(tmpdir(), "collab-content-"));

beforeAll(async () => {
  app = await startApp("content-repository");
  root = apiClient(app.url, app.rootToken);
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  expect((await root.put("/application/settings", { json: { repository_storages_weighted: { default: 100, other: 0 } } })).status).toBe(200);
  [alice, guest, outsider] = await Promise.all(["alice", "guest", "outsider"].map((u) => createGitbeakerUser(app, u)));
});

/** Moves a project to the `other` storage (a storage move, stepped by the admin worker until it is done). */
async function moveToOther(projectId: number) {
  const created = await root.post(`/projects/${projectId}/repository_storage_moves`, { json: { destination_storage_name: "other" } });
  expect(created.status).toBe(201);
  for (let i = 0; i < 50; i++) {
    const move = await root.get(`/projects/${projectId}/repository_storage_moves/${created.body.id}`);
    if (["finished", "failed", "cleanup failed"].includes(move.body.state)) break;
    await call(app.broker, Admin.storageMoves.tick, {});
  }
  expect((await root.get(`/projects/${projectId}`)).body.repository_storage).toBe("other");
}

/**
 * A private project with a README, then src/ files on main and a change on `feature`, on
 * `storage` (new projects start on `default`: one for `other` is moved there first).
 */
async function seeded(storage: "default" | "other") {
  const project = (await alice.gl.Projects.create({ name: `code-${storage}`, visibility: "private", initializeWithReadme: true })) as unknown as { id: number; path: string; web_url: string };
  if (storage === "other") await moveToOther(project.id);
  await alice.gl.ProjectMembers.add(project.id, 10, { userId: guest.id });
  const base = (await alice.gl.Commits.create(project.id, "main", "Add sources", [
    { action: "create", file_path: "src/app.ts", content: "export const app = 1;\n" },
    { action: "create", file_path: "src/lib/util.ts", content: "export const util = 2;\n" },
    { action: "create", file_path: "LICENSE", content: "MIT\n" },
  ] as never)) as unknown as { id: string };
  const change = (await alice.gl.Commits.create(project.id, "feature", "Change the app", [{ action: "update", file_path: "src/app.ts", content: "export const app = 2;\n" }] as never, { startBranch: "main" })) as unknown as { id: string };
  return { project, base, change };
}

describe.each(["default", "other"] as const)("on the %s storage", (storage) => {
  test("the tree: a folder, recursive, offset pages with totals, keyset pages by page_token, everything at once", async () => {
    const { project } = await seeded(storage);
    expect((await root.get(`/projects/${project.id}`)).body.repository_storage).toBe(storage);
    type Entry = { id: string; name: string; type: string; path: string; mode: string };
    const top = (await alice.gl.Repositories.allRepositoryTrees(project.id)) as unknown as Entry[];
    expect(top.map((e) => [e.type, e.path, e.mode])).toEqual([
      ["tree", "src", "040000"],
      ["blob", "LICENSE", "100644"],
      ["blob", "README.md", "100644"],
    ]);
    const src = (await alice.gl.Repositories.allRepositoryTrees(project.id, { path: "src", ref: "feature" })) as unknown as Entry[];
    expect(src.map((e) => e.name)).toEqual(["lib", "app.ts"]);
    const all = (await alice.gl.Repositories.allRepositoryTrees(project.id, { recursive: true })) as unknown as Entry[];
    expect(all.map((e) => e.path)).toEqual(["src", "src/lib", "LICENSE", "README.md", "src/app.ts", "src/lib/util.ts"]);

    const api = apiClient(app.url, alice.token);
    const paged = await api.get(`/projects/${project.id}/repository/tree`, { query: { recursive: true, per_page: 4, page: 2 } });
    expect(paged.body.map((e: Entry) => e.path)).toEqual(["src/app.ts", "src/lib/util.ts"]);
    expect([paged.headers.get("x-total"), paged.headers.get("x-total-pages"), paged.headers.get("x-next-page")]).toEqual(["6", "2", ""]);

    const keyset = await api.get(`/projects/${project.id}/repository/tree`, { query: { recursive: true, per_page: 4, pagination: "keyset" } });
    expect(keyset.body.map((e: Entry) => e.path)).toEqual(["src", "src/lib", "LICENSE", "README.md"]);
    const next = /<([^>]+)>; rel="next"/.exec(keyset.headers.get("link") ?? "")?.[1];
    expect(next).toContain("page_token=README.md");
    const second = await api.get(new URL(next!).pathname.replace(/^\/api\/v4/, "") + new URL(next!).search);
    expect(second.body.map((e: Entry) => e.path)).toEqual(["src/app.ts", "src/lib/util.ts"]);
    expect(second.headers.get("link")).toBeNull();

    const none = await api.get(`/projects/${project.id}/repository/tree`, { query: { recursive: true, pagination: "none" } });
    expect(none.body).toHaveLength(6);
    expect((await api.get(`/projects/${project.id}/repository/tree`, { query: { pagination: "none" } })).status).toBe(400);
    expect((await api.get(`/projects/${project.id}/repository/tree`, { query: { ref: "nope" } })).body).toEqual({ message: "404 Tree Not Found" });
    expect((await api.get(`/projects/${project.id}/repository/tree`, { query: { path: "LICENSE" } })).status).toBe(404);
  });

  test("blobs, compare, contributors and archives", async () => {
    const { project, base, change } = await seeded(storage);
    const license = ((await alice.gl.Repositories.allRepositoryTrees(project.id)) as unknown as { name: string; id: string }[]).find((e) => e.name === "LICENSE")!;
    expect(await alice.gl.Repositories.showBlob(project.id, license.id)).toEqual({ size: 4, encoding: "base64", content: Buffer.from("MIT\n").toString("base64"), sha: license.id });
    const raw = await apiClient(app.url, alice.token).get(`/projects/${project.id}/repository/blobs/${license.id.slice(0, 12)}/raw`);
    expect([raw.status, raw.text, raw.headers.get("content-type"), raw.headers.get("content-length")]).toEqual([200, "MIT\n", "text/plain; charset=utf-8", "4"]);
    const viaGitbeaker = (await alice.gl.Repositories.showBlobRaw(project.id, license.id)) as unknown as Blob | string;
    expect(typeof viaGitbeaker === "string" ? viaGitbeaker : await viaGitbeaker.text()).toBe("MIT\n");
    expect(await failureStatus(alice.gl.Repositories.showBlob(project.id, "0".repeat(40)))).toBe(404);
    expect(await failureStatus(alice.gl.Repositories.showBlob(project.id, base.id))).toBe(404); // a commit is no blob

    type Compare = { commit: { id: string } | null; commits: { id: string }[]; diffs: { new_path: string; diff: string }[]; compare_timeout: boolean; compare_same_ref: boolean; web_url: string };
    const compared = (await alice.gl.Repositories.compare(project.id, "main", "feature")) as unknown as Compare;
    expect(compared).toMatchObject({ commit: { id: change.id }, commits: [{ id: change.id }], compare_timeout: false, compare_same_ref: false, web_url: `${project.web_url}/-/compare/${base.id}...${change.id}` });
    expect(compared.diffs).toEqual([expect.objectContaining({ new_path: "src/app.ts", diff: "@@ -1 +1 @@\n-export const app = 1;\n+export const app = 2;\n" })]);
    const reverse = (await alice.gl.Repositories.compare(project.id, "feature", "main", { straight: true })) as unknown as Compare;
    expect(reverse).toMatchObject({ commit: null, commits: [], diffs: [expect.objectContaining({ new_path: "src/app.ts" })] });
    expect(await alice.gl.Repositories.compare(project.id, "main", "main")).toMatchObject({ compare_same_ref: true, commits: [], diffs: [] });
    expect(await failureStatus(alice.gl.Repositories.compare(project.id, "main", "nope"))).toBe(404);

    expect(await alice.gl.Repositories.allContributors(project.id)).toEqual([{ name: "Alice", email: "alice@example.com", commits: 2, additions: 0, deletions: 0 }]);

    const api = apiClient(app.url, alice.token);
    const tarball = await fetch(`${app.url}/api/v4/projects/${project.id}/repository/archive.tar.gz?sha=feature`, { headers: { "PRIVATE-TOKEN": alice.token } });
    expect(tarball.status).toBe(200);
    expect(tarball.headers.get("content-disposition")).toContain(`filename="${project.path}-feature-${change.id}.tar.gz"`);
    const file = path.join(scratch, `${storage}.tar.gz`);
    writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
    const listed = execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).trim().split("\n").sort();
    const top = `${project.path}-feature-${change.id}`;
    expect(listed).toEqual([`${top}/`, `${top}/LICENSE`, `${top}/README.md`, `${top}/src/`, `${top}/src/app.ts`, `${top}/src/lib/`, `${top}/src/lib/util.ts`]);
    const zipped = (await alice.gl.Repositories.showArchive(project.id, { fileType: "zip", path: "src/lib" } as never)) as unknown as Blob;
    const zipBytes = Buffer.from(await zipped.arrayBuffer());
    expect(zipBytes.subarray(0, 2).toString()).toBe("PK");
    expect(zipBytes.includes(Buffer.from("src/lib/util.ts"))).toBe(true);
    expect(zipBytes.includes(Buffer.from("src/app.ts"))).toBe(false);
    expect((await api.get(`/projects/${project.id}/repository/archive.rar`)).status).toBe(404);
    expect((await api.get(`/projects/${project.id}/repository/archive`, { query: { sha: "nope" } })).status).toBe(404);
  });

  test("reads need Reporter on a private project: Guests 403, outsiders 404", async () => {
    const { project } = await seeded(storage);
    expect(await failureStatus(guest.gl.Repositories.allRepositoryTrees(project.id))).toBe(403);
    expect(await failureStatus(guest.gl.Repositories.compare(project.id, "main", "feature"))).toBe(403);
    expect(await failureStatus(outsider.gl.Repositories.allRepositoryTrees(project.id))).toBe(404);
    expect((await apiClient(app.url).get(`/projects/${project.id}/repository/archive.zip`)).status).toBe(404);
  });
});

test("an empty repository: no commits, no tree, and a first commit makes its branch", async () => {
  const project = (await alice.gl.Projects.create({ name: "empty", visibility: "public" })) as unknown as { id: number; path_with_namespace: string };
  expect(await alice.gl.Commits.all(project.id)).toEqual([]);
  expect(await failureStatus(alice.gl.Repositories.allRepositoryTrees(project.id))).toBe(404);
  await alice.gl.Commits.create(project.id, "main", "First", [{ action: "create", file_path: "a.txt", content: "a" }] as never);
  expect(((await alice.gl.Commits.all(project.id)) as unknown as { title: string }[]).map((c) => c.title)).toEqual(["First"]);
  // A public project's code is open to anyone.
  expect((await apiClient(app.url).get(`/projects/${project.id}/repository/files/a.txt/raw`)).text).toBe("a");
  const git = new GitClient();
  try {
    expect((await git.ok(["ls-remote", "--symref", `${app.url}/${project.path_with_namespace}.git`, "HEAD"])).split("\n")[0]).toBe("ref: refs/heads/main\tHEAD");
  } finally {
    git.cleanUp();
  }
});
