import { apiClient, eventually, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/** Snippets in the Events API: created (GitLab's action_name "opened") and commented on, to those who may see them. */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("snippet-events");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

interface Ev {
  action_name: string;
  target_type: string | null;
  target_id: number | null;
  target_title: string | null;
  note?: { noteable_type: string; noteable_id: number; noteable_iid: number | null; body: string };
}

test("a snippet's creation and its comments appear in the project's events", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const outsider = await createGitbeakerUser(app, "outsider");
  const project = await alice.gl.Projects.create({ name: "Docs", visibility: "public" });
  const open = await alice.gl.ProjectSnippets.create(project.id, "Open recipe", { visibility: "public", fileName: "a", content: "a" } as never);
  const closed = await alice.gl.ProjectSnippets.create(project.id, "Team recipe", { visibility: "private", fileName: "b", content: "b" } as never);
  const note = await alice.gl.ProjectSnippetNotes.create(project.id, open.id, "Tried it");
  await alice.gl.ProjectSnippetNotes.create(project.id, closed.id, "Internal remark");

  const events = (as: ApiClient) => as.get<Ev[]>(`/projects/${project.id}/events`, { query: { sort: "asc" } });
  const mine = await eventually(async () => {
    const res = await events(apiClient(app.url, alice.token));
    expect(res.body.filter((e) => e.target_type === "Snippet" || e.target_type === "Note")).toHaveLength(4);
    return res.body;
  });
  expect(mine.filter((e) => e.target_type !== "Project" && e.target_type !== null).map((e) => [e.action_name, e.target_type, e.target_title])).toEqual([
    ["opened", "Snippet", "Open recipe"],
    ["opened", "Snippet", "Team recipe"],
    ["commented on", "Note", "Open recipe"],
    ["commented on", "Note", "Team recipe"],
  ]);
  expect(mine.find((e) => e.target_type === "Note" && e.target_id === note.id)?.note).toMatchObject({ noteable_type: "Snippet", noteable_id: open.id, noteable_iid: null, body: "Tried it" });

  // Somebody outside the project sees the public snippet's, not the private one's.
  const seen = (await events(apiClient(app.url, outsider.token))).body.filter((e) => e.target_type === "Snippet" || e.target_type === "Note");
  expect(seen.map((e) => e.target_title)).toEqual(["Open recipe", "Open recipe"]);
  expect((await root.get<Ev[]>(`/projects/${project.id}/events`, { query: { target_type: "snippet" } })).body.map((e) => e.target_id)).toEqual([closed.id, open.id]);

  // A deleted snippet takes its events with it.
  await alice.gl.ProjectSnippets.remove(project.id, open.id);
  await eventually(async () => {
    const titles = (await events(root)).body.filter((e) => e.target_type === "Snippet" || e.target_type === "Note").map((e) => e.target_title);
    expect(titles).toEqual(["Team recipe", "Team recipe"]);
  });
});
