import { addMember, apiClient, createUser, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Issues and merge requests that reference each other beyond closing: an issue's related merge
 * requests (those whose description mentions or closes it) and a merge request's related issues
 * (those its description, title and visible notes name), only what the caller may read.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startApp("related-issues");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const iidsOf = (items: { iid: number }[]) => items.map((i) => i.iid);

test("mentions and closing references, both ways, with @gitbeaker/rest", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const bob = await createGitbeakerUser(app, "bob");
  const project = await alice.gl.Projects.create({ name: "app", visibility: "private", initializeWithReadme: true });
  const other = await alice.gl.Projects.create({ name: "other", visibility: "private" });
  await addMember(app, "projects", project.id, bob.id, 30);
  const issue = (projectId: number, title: string) => alice.gl.Issues.create(projectId, title);
  const closed = await issue(project.id, "closed one");
  const mentioned = await issue(project.id, "mentioned one");
  const inTitle = await issue(project.id, "named in the title");
  const inNote = await issue(project.id, "named in a note");
  const elsewhere = await issue(other.id, "in a project bob cannot see");
  const unrelated = await issue(project.id, "unrelated");

  await alice.gl.Branches.create(project.id, "fix", "main");
  await alice.gl.Commits.create(project.id, "fix", "Fix", [{ action: "update", filePath: "README.md", content: "fixed" }]);
  const mr = await alice.gl.MergeRequests.create(project.id, "fix", "main", `Fix #${inTitle.iid}`, {
    description: `Closes #${closed.iid}. See also #${mentioned.iid} and ${other.path_with_namespace}#${elsewhere.iid}.`,
  });
  await alice.gl.MergeRequestNotes.create(project.id, mr.iid, `and #${inNote.iid}`);
  await alice.gl.Branches.create(project.id, "other-fix", "main");
  await alice.gl.Commits.create(project.id, "other-fix", "Other", [{ action: "update", filePath: "README.md", content: "other" }]);
  const second = await alice.gl.MergeRequests.create(project.id, "other-fix", "main", "Second", { description: `Relates to #${mentioned.iid}` });

  // The merge request's related issues: description (as saved), title, notes; the caller's view.
  const related = await alice.gl.MergeRequests.allIssuesRelated(project.id, mr.iid);
  expect(related.map((i) => i.title)).toEqual(["closed one", "mentioned one", "in a project bob cannot see", "named in the title", "named in a note"]);
  expect(related[0]).toMatchObject({ id: closed.id, iid: closed.iid, project_id: project.id, state: "opened", references: { short: `#${closed.iid}` } });
  expect(related[0]).not.toHaveProperty("_links");
  expect(iidsOf(await bob.gl.MergeRequests.allIssuesRelated(project.id, mr.iid))).toEqual([closed.iid, mentioned.iid, inTitle.iid, inNote.iid]);
  // closes_issues is still only the closing one.
  expect(iidsOf(await alice.gl.MergeRequests.allIssuesClosed(project.id, mr.iid))).toEqual([closed.iid]);

  // An issue's related merge requests: those whose description mentions or closes it.
  expect(iidsOf(await alice.gl.Issues.allRelatedMergeRequests(project.id, mentioned.iid))).toEqual([second.iid, mr.iid]);
  expect(iidsOf(await alice.gl.Issues.allRelatedMergeRequests(project.id, closed.iid))).toEqual([mr.iid]);
  expect(iidsOf(await alice.gl.Issues.allRelatedMergeRequests(other.id, elsewhere.iid))).toEqual([mr.iid]);
  expect(await alice.gl.Issues.allRelatedMergeRequests(project.id, unrelated.iid)).toEqual([]);
  // closed_by stays the closing ones, and merge_requests_count counts only those.
  expect(iidsOf(await alice.gl.Issues.allClosedByMergeRequestst(project.id, mentioned.iid))).toEqual([]);
  expect((await alice.gl.Issues.show(mentioned.iid, { projectId: project.id })).merge_requests_count).toBe(0);
  expect((await alice.gl.Issues.show(closed.iid, { projectId: project.id })).merge_requests_count).toBe(1);

  // Editing the description changes the mentions.
  await alice.gl.MergeRequests.edit(project.id, second.iid, { description: `now about #${unrelated.iid}` });
  expect(iidsOf(await alice.gl.Issues.allRelatedMergeRequests(project.id, mentioned.iid))).toEqual([mr.iid]);
  expect(iidsOf(await alice.gl.Issues.allRelatedMergeRequests(project.id, unrelated.iid))).toEqual([second.iid]);

  // Paged, with GitLab's headers.
  const raw = apiClient(app.url, alice.token);
  const pageTwo = await raw.get(`/projects/${project.id}/merge_requests/${mr.iid}/related_issues?per_page=2&page=2`);
  expect(pageTwo.status).toBe(200);
  expect(pageTwo.headers.get("x-total")).toBe("5");
  expect(pageTwo.body.map((i: { title: string }) => i.title)).toEqual(["in a project bob cannot see", "named in the title"]);
  expect(await raw.get(`/projects/${project.id}/merge_requests/99/related_issues`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  expect(await raw.get(`/projects/${project.id}/issues/99/related_merge_requests`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
});

test("who may list them, on a private and a public project", async () => {
  const owner = await createUser(app, "owner");
  const outsider = await createUser(app, "outsider");
  const guest = await createUser(app, "guest");
  const reporter = await createUser(app, "reporter");
  const developer = await createUser(app, "developer");
  const anonymous = apiClient(app.url);
  for (const visibility of ["private", "public"] as const) {
    const project = (await owner.api.post("/projects", { json: { name: `${visibility} app`, visibility, initialize_with_readme: true } })).body;
    for (const [u, level] of [[guest, 10], [reporter, 20], [developer, 30]] as const) await addMember(app, "projects", project.id, u.id, level);
    const issue = (await owner.api.post(`/projects/${project.id}/issues`, { json: { title: "bug" } })).body;
    expect((await owner.api.post(`/projects/${project.id}/repository/branches`, { json: { branch: "fix", ref: "main" } })).status).toBe(201);
    const mr = (await owner.api.post(`/projects/${project.id}/merge_requests`, { json: { title: "Fix", source_branch: "fix", target_branch: "main", description: `see #${issue.iid}` } })).body;
    const table = async (path: string) => {
      const out: Record<string, unknown> = {};
      for (const [role, as] of [["anonymous", anonymous], ["outsider", outsider.api], ["guest", guest.api], ["reporter", reporter.api], ["developer", developer.api]] as const) {
        const res = await as.get(path);
        out[role] = res.status === 200 ? res.body.length : `${res.status} ${res.body.message}`;
      }
      return out;
    };
    const relatedMrs = await table(`/projects/${project.id}/issues/${issue.iid}/related_merge_requests`);
    const relatedIssues = await table(`/projects/${project.id}/merge_requests/${mr.iid}/related_issues`);
    if (visibility === "private") {
      // Guests read the issue, not the project's merge requests (Reporter and up).
      expect(relatedMrs).toEqual({ anonymous: "404 404 Project Not Found", outsider: "404 404 Project Not Found", guest: 0, reporter: 1, developer: 1 });
      expect(relatedIssues).toEqual({ anonymous: "404 404 Project Not Found", outsider: "404 404 Project Not Found", guest: "403 403 Forbidden", reporter: 1, developer: 1 });
    } else {
      expect(relatedMrs).toEqual({ anonymous: 1, outsider: 1, guest: 1, reporter: 1, developer: 1 });
      expect(relatedIssues).toEqual({ anonymous: 1, outsider: 1, guest: 1, reporter: 1, developer: 1 });
    }
  }
});
