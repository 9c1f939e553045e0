import { apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Following a merge request (MergeRequests.subscribe / unsubscribe, the shared subscriptions of
 * @collab/work-items that issues use too) and its reviewers with their review states
 * (MergeRequests.showReviewers), through @gitbeaker/rest.
 *
 * World: alice owns a private project "secret" and a public one "open", where guest, reporter and
 * developer have those roles; outsider is a member of neither. Each has a merge request by alice
 * that developer and reporter review.
 */
let app: TestApp;
let alice: GitbeakerUser;
let guest: GitbeakerUser;
let reporter: GitbeakerUser;
let developer: GitbeakerUser;
let outsider: GitbeakerUser;
let anonymous: ApiClient;
const projects: Record<"secret" | "open", { id: number; mr: number }> = { secret: { id: 0, mr: 0 }, open: { id: 0, mr: 0 } };

beforeAll(async () => {
  app = await startApp("merge-request-subscriptions");
});
afterAll(() => app.stop());

beforeEach(async () => {
  await app.reset();
  anonymous = apiClient(app.url);
  [alice, guest, reporter, developer, outsider] = await Promise.all(["alice", "guest", "reporter", "developer", "outsider"].map((u) => createGitbeakerUser(app, u)));
  for (const [name, visibility] of [["secret", "private"], ["open", "public"]] as const) {
    const id = (await alice.gl.Projects.create({ name, visibility, initializeWithReadme: true })).id as number;
    for (const [user, level] of [[guest, 10], [reporter, 20], [developer, 30]] as const) await alice.gl.ProjectMembers.add(id, level, { userId: user.id });
    await alice.gl.Branches.create(id, "feature", "main");
    const mr = await alice.gl.MergeRequests.create(id, "feature", "main", "Feature", { reviewerIds: [developer.id, reporter.id] });
    projects[name] = { id, mr: mr.iid as number };
  }
});

const subscribed = async (user: GitbeakerUser, p: { id: number; mr: number }) => (await user.gl.MergeRequests.show(p.id, p.mr)).subscribed;

describe("subscribe and unsubscribe", () => {
  test("201 with the merge request; 304 when already so; participants follow it until they unsubscribe", async () => {
    const p = projects.open;
    // The author and the reviewers take part: they follow it without a subscription.
    expect(await subscribed(alice, p)).toBe(true);
    expect(await subscribed(developer, p)).toBe(true);
    expect(await subscribed(outsider, p)).toBe(false);
    expect(await failureStatus(alice.gl.MergeRequests.subscribe(p.id, p.mr))).toBe(304);

    const off = await alice.gl.MergeRequests.unsubscribe(p.id, p.mr);
    expect(off).toMatchObject({ iid: p.mr, project_id: p.id, subscribed: false });
    expect(await subscribed(alice, p)).toBe(false);
    expect(await failureStatus(alice.gl.MergeRequests.unsubscribe(p.id, p.mr))).toBe(304);

    const on = await outsider.gl.MergeRequests.subscribe(p.id, p.mr);
    expect(on).toMatchObject({ iid: p.mr, subscribed: true });
    expect(await subscribed(outsider, p)).toBe(true);
    // One user's choice is theirs alone.
    expect(await subscribed(guest, p)).toBe(false);
    expect(await subscribed(alice, p)).toBe(false);
    const res = await apiClient(app.url, outsider.token).post(`/projects/${p.id}/merge_requests/${p.mr}/subscribe`);
    expect([res.status, res.text]).toEqual([304, ""]);
  });

  test("permissions: 401 anonymous; the merge request as the caller reads it", async () => {
    const matrix: Record<string, Record<string, number>> = {};
    for (const name of ["secret", "open"] as const) {
      const p = projects[name];
      const path = `/projects/${p.id}/merge_requests/${p.mr}/subscribe`;
      const row: Record<string, number> = { anonymous: (await anonymous.post(path)).status };
      for (const user of [outsider, guest]) row[user.username] = (await apiClient(app.url, user.token).post(path)).status;
      // Reporter and developer review it, so they follow it already: unsubscribing is what changes.
      for (const user of [reporter, developer]) row[user.username] = (await apiClient(app.url, user.token).post(path.replace(/subscribe$/, "unsubscribe"))).status;
      matrix[name] = row;
    }
    expect(matrix).toEqual({
      secret: { anonymous: 401, outsider: 404, guest: 403, reporter: 201, developer: 201 },
      open: { anonymous: 401, outsider: 201, guest: 201, reporter: 201, developer: 201 },
    });
  });

  test("validation: an unknown merge request 404, a malformed iid 400", async () => {
    const dev = apiClient(app.url, developer.token);
    expect((await dev.post(`/projects/${projects.open.id}/merge_requests/99/subscribe`)).status).toBe(404);
    const bad = await dev.post(`/projects/${projects.open.id}/merge_requests/abc/unsubscribe`);
    expect([bad.status, bad.body]).toEqual([400, { error: "merge_request_iid is invalid" }]);
  });
});

describe("reviewers", () => {
  test("each reviewer with their state: unreviewed until they approve, unapproved once they withdraw it", async () => {
    const p = projects.secret;
    // Asked in one write, at one time: listed by user id then.
    const reviewers = await developer.gl.MergeRequests.showReviewers(p.id, p.mr);
    expect(reviewers).toEqual([
      ...[developer, reporter]
        .sort((a, b) => a.id - b.id)
        .map((u) => ({ user: expect.objectContaining({ id: u.id, username: u.username }), state: "unreviewed", created_at: expect.any(String) })),
    ]);
    await developer.gl.MergeRequestApprovals.approve(p.id, p.mr);
    const states = async () => Object.fromEntries((await reporter.gl.MergeRequests.showReviewers(p.id, p.mr)).map((r) => [r.user.username, r.state]));
    expect(await states()).toEqual({ developer: "approved", reporter: "unreviewed" });
    await developer.gl.MergeRequestApprovals.unapprove(p.id, p.mr);
    expect(await states()).toEqual({ developer: "unapproved", reporter: "unreviewed" });
    // A reviewer removed is listed no more; one added starts unreviewed.
    await alice.gl.MergeRequests.edit(p.id, p.mr, { reviewerIds: [reporter.id, guest.id] });
    expect(await states()).toEqual({ reporter: "unreviewed", guest: "unreviewed" });
  });

  test("permissions: the merge request as the caller reads it, anonymous callers on public projects too", async () => {
    const matrix: Record<string, Record<string, number>> = {};
    for (const name of ["secret", "open"] as const) {
      const path = `/projects/${projects[name].id}/merge_requests/${projects[name].mr}/reviewers`;
      const row: Record<string, number> = { anonymous: (await anonymous.get(path)).status };
      for (const user of [outsider, guest, reporter, developer]) row[user.username] = (await apiClient(app.url, user.token).get(path)).status;
      matrix[name] = row;
    }
    expect(matrix).toEqual({
      secret: { anonymous: 404, outsider: 404, guest: 403, reporter: 200, developer: 200 },
      open: { anonymous: 200, outsider: 200, guest: 200, reporter: 200, developer: 200 },
    });
    expect((await anonymous.get(`/projects/${projects.open.id}/merge_requests/99/reviewers`)).status).toBe(404);
  });
});
