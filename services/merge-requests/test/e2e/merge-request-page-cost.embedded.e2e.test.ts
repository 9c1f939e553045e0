import { Accounts } from "@collab/accounts-contract";
import { flushAccessEverywhere, flushUserRefsEverywhere, flushWorkItemRefsEverywhere } from "@collab/core";
import { settleOutboxes } from "@collab/db";
import { addMember, apiClient, assertStatus as ok, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import pg from "pg";
import { startApp } from "@collab/standalone/test/app";
import { Namespaces } from "@collab/namespaces-contract";
import { Repositories } from "@collab/repositories-contract";

/**
 * What one page of merge requests costs in bus calls and in queries of the merge-requests schema,
 * whatever it holds. Embedded only: the spies see the calls and queries of services running in
 * this process (jest.distributed.config.js skips *.embedded.e2e.test.ts files).
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("merge-request-page-cost");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

type Query = NonNullable<Parameters<ApiClient["get"]>[1]>["query"];

test("a page of 20 merge requests costs a fixed number of bus calls and queries", async () => {
  const project = await createProject(root, { name: "api", initialize_with_readme: true });
  const users = await Promise.all(["alice", "bob", "carol"].map((u) => createUser(app, u)));
  for (const u of users) await addMember(app, "projects", project.id, u.id, 30);
  const milestones = await Promise.all(["v1", "v2"].map(async (title) => ok(await root.post(`/projects/${project.id}/milestones`, { json: { title } }), 201, "milestone").body));
  for (let n = 0; n < 20; n++) {
    ok(await root.post(`/projects/${project.id}/repository/branches`, { json: { branch: `b${n}`, ref: "main" } }), 201, "branch");
    ok(
      await root.post(`/projects/${project.id}/merge_requests`, {
        json: {
          title: `Bulk ${n}`,
          source_branch: `b${n}`,
          target_branch: "main",
          labels: n % 2 ? "bug,feature" : `bulk-${n}`,
          assignee_ids: users.slice(0, 1 + (n % 3)).map((u) => u.id),
          reviewer_ids: [users[n % 3].id],
          milestone_id: milestones[(n + 1) % 2].id,
        },
      }),
      201,
      "merge request",
    );
  }

  // Every ctx.call goes through broker.call; every query of any service through the one client.
  await settleOutboxes(app.database.db); // the setup's events are applied after their answers
  const calls = jest.spyOn(app.broker, "call");
  // Every query of any service in this process: through pg's Client (a pooled connection).
  const client = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const queries = jest.spyOn(client, "query");
  const costOf = async (query: Query) => {
    calls.mockClear();
    queries.mockClear();
    const res = await root.get(`/projects/${project.id}/merge_requests`, { query });
    expect(res.status).toBe(200);
    const counts: Record<string, number> = {};
    for (const [name] of calls.mock.calls) counts[String(name)] = (counts[String(name)] ?? 0) + 1;
    // node-postgres takes a query config ({ text, values }) as often as a string.
    const textOf = (q: unknown) => (typeof q === "string" ? q : String((q as { text?: string } | null)?.text ?? ""));
    // The relay hands earlier writes' events over after their answers: its outbox statements may
    // run meanwhile, and are not the page's.
    const own = queries.mock.calls.filter(([q]) => /"?merge_requests"?\./.test(textOf(q)) && !/outbox|processed_events/.test(textOf(q))).length;
    return { items: res.body as { labels: unknown[]; assignees: unknown[]; reviewers: unknown[]; milestone: unknown }[], counts, queries: own };
  };
  try {
    // Held answers (the caller's access, user refs, labels and milestones) fresh for the whole test: emptied, then asked
    // once by a first page; the pages measured below do not ask for them again.
    await flushAccessEverywhere(app.broker, "test");
    await flushUserRefsEverywhere(app.broker, "test");
    await flushWorkItemRefsEverywhere(app.broker, "test");
    const first = await costOf({ per_page: 20 });
    expect(Object.keys(first.counts)).toEqual(expect.arrayContaining([Accounts.users.refs.name, Namespaces.access.project.name, Namespaces.workItems.refs.name, Namespaces.access.levelsOnProjects.name]));
    // The list shows the git state stored on its rows: no repository is asked.
    expect(Object.keys(first.counts).filter((name) => name.startsWith("repositories."))).toEqual([]);
    const big = await costOf({ per_page: 20, with_labels_details: true });
    expect(big.items).toHaveLength(20);
    expect(big.items.every((i) => i.labels.length > 0 && i.assignees.length > 0 && i.reviewers.length > 0 && i.milestone !== null)).toBe(true);
    // Held since the first page: access, users, labels and milestones, members' levels.
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Namespaces.access.levelsOnProjects.name]));
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Namespaces.workItems.refs.name]));
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Accounts.users.refs.name]));
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Namespaces.access.project.name]));
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Namespaces.labels.byIds.name]));
    expect(Object.keys(big.counts)).not.toEqual(expect.arrayContaining([Namespaces.milestones.byIds.name]));
    const small = await costOf({ per_page: 2, with_labels_details: true });
    expect(small.items).toHaveLength(2);
    expect(big.counts).toEqual(small.counts);
    for (const [name, n] of Object.entries(big.counts)) expect([name, n]).toEqual([name, 1]);
    // The page (rows, total), its presentation (labels, assignees and reviewers in one, unresolved
    // threads) and the approval state of the page (approvals, settings, project and merge-request rules).
    expect(big.queries).toBe(small.queries);
    expect(big.queries).toBeGreaterThanOrEqual(2);
    expect(big.queries).toBeLessThanOrEqual(8);
    const filters = { labels: "bug,feature", "not[labels]": "docs", assignee_username: ["alice"], reviewer_username: "bob", milestone: "v1", order_by: "label_priority" };
    const filtered = await costOf({ ...filters, per_page: 20 });
    expect(filtered.items.length).toBeGreaterThan(2);
    const filteredSmall = await costOf({ ...filters, per_page: 2 });
    expect(filteredSmall.counts).toEqual(filtered.counts);
    expect(filteredSmall.queries).toBe(filtered.queries);
    for (const [name, n] of Object.entries(filtered.counts)) expect([name, n <= 2]).toEqual([name, true]);
  } finally {
    calls.mockRestore();
    queries.mockRestore();
  }
  // Its setup makes 20 branches and merge requests on real git, one after another.
}, 120_000);
