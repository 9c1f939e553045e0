import { Accounts } from "@collab/accounts-contract";
import { flushAccessEverywhere, flushUserRefsEverywhere, flushWorkItemRefsEverywhere } from "@collab/core";
import { settleOutboxes } from "@collab/db";
import { MergeRequests } from "@collab/merge-requests-contract";
import { addMember, apiClient, assertStatus as ok, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * What one page of issues costs in bus calls, whatever it holds. Embedded only: the spy sees the
 * calls services make because they all run in this process (jest.distributed.config.js skips
 * *.embedded.e2e.test.ts files).
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("issue-page-cost");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

type Query = NonNullable<Parameters<ApiClient["get"]>[1]>["query"];

test("a page of 20 issues with labels, assignees and a milestone costs a fixed number of bus calls", async () => {
  const project = await createProject(root, { name: "api" });
  const users = await Promise.all(["alice", "bob", "carol"].map((u) => createUser(app, u)));
  for (const u of users) await addMember(app, "projects", project.id, u.id, 30);
  const milestones = await Promise.all(
    ["v1", "v2"].map(async (title) => ok(await root.post(`/projects/${project.id}/milestones`, { json: { title } }), 201, "milestone").body),
  );
  for (let n = 0; n < 20; n++) {
    ok(
      await root.post(`/projects/${project.id}/issues`, {
        json: {
          title: `Bulk ${n}`,
          labels: n % 2 ? "bug,feature" : `bulk-${n}`,
          assignee_ids: users.slice(0, 1 + (n % 3)).map((u) => u.id),
          milestone_id: milestones[(n + 1) % 2].id, // the bug,feature issues are in v1
        },
      }),
      201,
      "issue",
    );
  }

  // Every ctx.call of a service goes through broker.call (Context#call delegates to it), so a spy
  // on the broker counts the calls one HTTP request makes, by action — once the setup's events
  // have been applied (they are handed over after each answer).
  await settleOutboxes(app.database.db);
  const spy = jest.spyOn(app.broker, "call");
  const callsFor = async (query: Query) => {
    spy.mockClear();
    const res = await root.get(`/projects/${project.id}/issues`, { query });
    expect(res.status).toBe(200);
    const counts: Record<string, number> = {};
    for (const [name] of spy.mock.calls) counts[String(name)] = (counts[String(name)] ?? 0) + 1;
    return { items: res.body as { labels: unknown[]; assignees: unknown[]; milestone: unknown }[], counts };
  };
  try {
    // Held answers (the caller's access, user refs, labels and milestones) fresh for the whole test: emptied, then asked
    // once by a first page (the gateway knows the token since the setup's requests); the pages
    // measured below ask for neither.
    await flushAccessEverywhere(app.broker, "test");
    await flushUserRefsEverywhere(app.broker, "test");
    await flushWorkItemRefsEverywhere(app.broker, "test");
    const first = await callsFor({ per_page: 20 });
    expect(Object.keys(first.counts)).toEqual(expect.arrayContaining([Namespaces.access.project.name, Accounts.users.refs.name, Namespaces.workItems.refs.name]));
    const big = await callsFor({ per_page: 20, with_labels_details: true });
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Accounts.authenticate.name]));
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Namespaces.access.project.name]));
    expect(big.items).toHaveLength(20);
    expect(big.items.every((i) => i.labels.length > 0 && i.assignees.length > 0 && i.milestone !== null)).toBe(true);
    // The page is presented from other services' data (labels and milestones together, in one
    // call to namespaces), held once asked: neither accounts nor namespaces is asked again.
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Accounts.users.refs.name]));
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Namespaces.workItems.refs.name]));
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Namespaces.labels.byIds.name]));
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Namespaces.milestones.byIds.name]));
    const small = await callsFor({ per_page: 2, with_labels_details: true });
    expect(small.items).toHaveLength(2);
    // The same calls whatever the page size, each remote kind at most once.
    expect(big.counts).toEqual(small.counts);
    for (const [name, n] of Object.entries(big.counts)) expect([name, n]).toEqual([name, 1]);
    // merge_requests_count: one batched call to the merge-requests service per page.
    expect(big.counts[MergeRequests.closingIssues.counts.name]).toBe(1);
    expect(Object.keys(big.counts).length).toBeLessThanOrEqual(3);
    // Names in filters resolve once per kind (not per value or row): at most twice per action,
    // once to filter or sort and once to present the page.
    const filters = { labels: "bug,feature", "not[labels]": "docs", assignee_username: ["alice"], milestone: "v1", order_by: "label_priority" };
    const filtered = await callsFor({ ...filters, per_page: 20 });
    expect(filtered.items.length).toBeGreaterThan(2);
    expect((await callsFor({ ...filters, per_page: 2 })).counts).toEqual(filtered.counts);
    for (const [name, n] of Object.entries(filtered.counts)) expect([name, n <= 2]).toEqual([name, true]);
    expect(Object.values(filtered.counts).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(11);
  } finally {
    spy.mockRestore();
  }
});

test("creating an issue checks its project, assignees, milestone and labels in one call to namespaces, and presents them from it", async () => {
  const project = await createProject(root, { name: "api" });
  const alice = await createUser(app, "alice");
  await addMember(app, "projects", project.id, alice.id, 30);
  const milestone = ok(await root.post(`/projects/${project.id}/milestones`, { json: { title: "v1" } }), 201, "milestone").body;
  const spy = jest.spyOn(app.broker, "call");
  try {
    const issue = ok(
      await root.post(`/projects/${project.id}/issues`, { json: { title: "Checked once", labels: "bug,new-one", assignee_ids: [alice.id], milestone_id: milestone.id } }),
      201,
      "issue",
    ).body;
    expect(issue.labels).toEqual(["bug", "new-one"]);
    expect(issue.assignees.map((a: { id: number }) => a.id)).toEqual([alice.id]);
    expect(issue.milestone.id).toBe(milestone.id);
    const names = spy.mock.calls.map(([name]) => String(name));
    // The project's access and the input's checks come in one call.
    expect(names.filter((n) => n.startsWith("namespaces."))).toEqual([Namespaces.workItems.authorizeIssueWrite.name]);
    expect(names).not.toEqual(expect.arrayContaining([Namespaces.labels.resolveForProject.name]));
    expect(names).not.toEqual(expect.arrayContaining([Namespaces.milestones.findForProject.name]));
    expect(names).not.toEqual(expect.arrayContaining([Namespaces.access.levelsOnProject.name]));
    // The answer's labels and milestone come from that call: not asked for again.
    expect(names).not.toEqual(expect.arrayContaining([Namespaces.workItems.refs.name]));
    expect(issue.milestone).toMatchObject({ title: "v1", project_id: project.id, web_url: expect.stringContaining("/-/milestones/") });
  } finally {
    spy.mockRestore();
  }
});

test("a page of issues in epics asks no service more: their epics are one query, a confidential one's group once", async () => {
  const group = ok(await root.post("/groups", { json: { name: "Plan", path: "plan" } }), 201, "group").body;
  const project = await createProject(root, { name: "api", namespace_id: group.id });
  const E = `/groups/${group.id}/epics`;
  const open = ok(await root.post(E, { json: { title: "Open" } }), 201, "epic").body;
  const secret = ok(await root.post(E, { json: { title: "Secret", confidential: true } }), 201, "epic").body;
  for (let n = 0; n < 20; n++) {
    const confidential = n % 5 === 0;
    const issue = ok(await root.post(`/projects/${project.id}/issues`, { json: { title: `Planned ${n}`, confidential } }), 201, "issue").body;
    ok(await root.post(`${E}/${confidential ? secret.iid : open.iid}/issues/${issue.id}`), 201, "link");
  }
  await settleOutboxes(app.database.db);
  const spy = jest.spyOn(app.broker, "call");
  const callsFor = async (query: Query) => {
    spy.mockClear();
    const res = ok(await root.get(`/projects/${project.id}/issues`, { query }), 200, "page");
    const counts: Record<string, number> = {};
    for (const [name] of spy.mock.calls) counts[String(name)] = (counts[String(name)] ?? 0) + 1;
    return { items: res.body as { epic: { iid: number } | null }[], counts };
  };
  try {
    await callsFor({ per_page: 20 });
    const all = await callsFor({ per_page: 20 });
    expect(all.items.map((i) => i.epic?.iid).sort()).toEqual([...Array(16).fill(open.iid), ...Array(4).fill(secret.iid)].sort());
    // The confidential epic's group is asked for once for the whole page.
    expect(all.counts[Namespaces.access.group.name]).toBe(1);
    expect((await callsFor({ per_page: 2, confidential: "true" })).counts).toEqual(all.counts);
    // Without a confidential epic on the page, nothing is asked for the epics at all.
    const plain = await callsFor({ per_page: 20, confidential: "false" });
    expect(plain.items.every((i) => i.epic?.iid === open.iid)).toBe(true);
    expect(plain.counts[Namespaces.access.group.name]).toBeUndefined();
  } finally {
    spy.mockRestore();
  }
});
