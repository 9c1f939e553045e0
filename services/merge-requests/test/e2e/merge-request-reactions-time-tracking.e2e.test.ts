import { addMember, apiClient, createProject, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Emoji reactions on merge requests and their comments, and time tracking of merge requests, with
 * @gitbeaker/rest (MergeRequestAwardEmojis, MergeRequestNoteAwardEmojis, MergeRequests time
 * tracking): the implementation issues share, with the merge requests' own rule (Developers and
 * up track time).
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("merge-request-reactions-time");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

async function world() {
  const [guest, reporter, developer, outsider] = await Promise.all(["guest", "reporter", "developer", "outsider"].map((u) => createGitbeakerUser(app, u)));
  const project = async (name: string, visibility: string) => {
    const p = await createProject(root, { name, visibility, initialize_with_readme: true });
    await Promise.all([addMember(app, "projects", p.id, guest.id, 10), addMember(app, "projects", p.id, reporter.id, 20), addMember(app, "projects", p.id, developer.id, 30)]);
    await developer.gl.Branches.create(p.id, "fix", "main");
    await developer.gl.Commits.create(p.id, "fix", "Fix", [{ action: "update", filePath: "README.md", content: "fixed" }]);
    const mr = await developer.gl.MergeRequests.create(p.id, "fix", "main", "Fix the page");
    return { id: p.id, iid: mr.iid as number, mrId: mr.id as number };
  };
  const [priv, pub] = await Promise.all([project("Secret", "private"), project("Open", "public")]);
  return { guest, reporter, developer, outsider, priv, pub };
}

test("reactions and time tracking on a merge request and its comments", async () => {
  const { developer, reporter, pub } = await world();
  const dev = developer.gl;

  const up = await reporter.gl.MergeRequestAwardEmojis.award(pub.id, pub.iid, "thumbsup");
  expect(up).toMatchObject({ name: "thumbsup", awardable_id: pub.mrId, awardable_type: "MergeRequest", user: { username: "reporter" }, url: null });
  await dev.MergeRequestAwardEmojis.award(pub.id, pub.iid, "thumbsdown");
  expect(await failureStatus(dev.MergeRequestAwardEmojis.award(pub.id, pub.iid, "thumbsdown"))).toBe(404);
  expect(await failureStatus(dev.MergeRequestAwardEmojis.award(pub.id, pub.iid, "no_such_emoji"))).toBe(404);
  expect(await dev.MergeRequests.show(pub.id, pub.iid)).toMatchObject({ upvotes: 1, downvotes: 1 });
  expect((await dev.MergeRequestAwardEmojis.all(pub.id, pub.iid)).map((a) => a.name)).toEqual(["thumbsup", "thumbsdown"]);
  expect(await dev.MergeRequestAwardEmojis.show(pub.id, pub.iid, up.id)).toEqual(up);
  expect(await failureStatus(dev.MergeRequestAwardEmojis.remove(pub.id, pub.iid, up.id))).toBe(401);
  await reporter.gl.MergeRequestAwardEmojis.remove(pub.id, pub.iid, up.id);
  expect(await dev.MergeRequests.show(pub.id, pub.iid)).toMatchObject({ upvotes: 0, downvotes: 1 });

  const note = await reporter.gl.MergeRequestNotes.create(pub.id, pub.iid, "Looks good");
  const onNote = await dev.MergeRequestNoteAwardEmojis.award(pub.id, pub.iid, note.id, "white_check_mark");
  expect(onNote).toMatchObject({ name: "white_check_mark", awardable_id: note.id, awardable_type: "Note" });
  expect(await reporter.gl.MergeRequestNoteAwardEmojis.all(pub.id, pub.iid, note.id)).toEqual([onNote]);
  expect(await reporter.gl.MergeRequestNoteAwardEmojis.show(pub.id, pub.iid, note.id, onNote.id)).toEqual(onNote);
  await dev.MergeRequestNoteAwardEmojis.remove(pub.id, pub.iid, note.id, onNote.id);
  expect(await reporter.gl.MergeRequestNoteAwardEmojis.all(pub.id, pub.iid, note.id)).toEqual([]);

  // Time tracking.
  expect(await dev.MergeRequests.setTimeEstimate(pub.id, pub.iid, "1d")).toEqual({ time_estimate: 28_800, total_time_spent: 0, human_time_estimate: "1d", human_total_time_spent: null });
  const spent = await root.post(`/projects/${pub.id}/merge_requests/${pub.iid}/add_spent_time`, { token: developer.token, json: { duration: "90m" } });
  expect(spent).toMatchObject({ status: 201, body: { total_time_spent: 5400, human_total_time_spent: "1h 30m" } });
  expect(await dev.MergeRequests.showTimeStats(pub.id, pub.iid)).toMatchObject({ time_estimate: 28_800, total_time_spent: 5400 });
  expect((await dev.MergeRequests.show(pub.id, pub.iid)).time_stats).toMatchObject({ time_estimate: 28_800, total_time_spent: 5400, human_time_estimate: "1d" });
  const bad = await root.post(`/projects/${pub.id}/merge_requests/${pub.iid}/time_estimate`, { token: developer.token, json: { duration: "1 fortnight" } });
  expect(bad).toMatchObject({ status: 400, body: { message: "400 Bad request - Time estimate must have a valid format and be greater than or equal to zero." } });
  expect(await dev.MergeRequests.resetSpentTime(pub.id, pub.iid)).toMatchObject({ total_time_spent: 0 });
  expect(await dev.MergeRequests.resetTimeEstimate(pub.id, pub.iid)).toMatchObject({ time_estimate: 0 });
  const notes = await dev.MergeRequestNotes.all(pub.id, pub.iid, { sort: "asc" });
  expect(notes.filter((n) => n.system).map((n) => n.body)).toEqual(["changed time estimate to 1d", "added 1h 30m of time spent", "removed time spent", "removed time estimate"]);
});

test("who may react and track time on merge requests of a private and a public project", async () => {
  const w = await world();
  const callers: [string, ApiClient][] = [
    ["anonymous", apiClient(app.url)],
    ["outsider", w.outsider.api],
    ["guest", w.guest.api],
    ["reporter", w.reporter.api],
    ["developer", w.developer.api],
  ];
  const outcomes = async (p: { id: number; iid: number }) => {
    const P = `/projects/${p.id}/merge_requests/${p.iid}`;
    const out: Record<string, number[]> = {};
    for (const [who, as] of callers) {
      out[who] = [
        (await as.get(`${P}/award_emoji`)).status,
        (await as.post(`${P}/award_emoji`, { json: { name: "eyes" } })).status,
        (await as.get(`${P}/time_stats`)).status,
        (await as.post(`${P}/time_estimate`, { json: { duration: "2h" } })).status,
        (await as.post(`${P}/add_spent_time`, { json: { duration: "1h" } })).status,
        (await as.post(`${P}/reset_spent_time`)).status,
      ];
    }
    return out;
  };
  // [list awards, award, time stats, set estimate, add spent time, reset spent time]
  expect(await outcomes(w.priv)).toEqual({
    anonymous: [404, 404, 404, 401, 401, 401],
    outsider: [404, 404, 404, 404, 404, 404],
    guest: [404, 404, 404, 404, 404, 404],
    reporter: [200, 201, 200, 403, 403, 403],
    developer: [200, 201, 200, 200, 201, 200],
  });
  expect(await outcomes(w.pub)).toEqual({
    anonymous: [200, 404, 200, 401, 401, 401],
    outsider: [200, 201, 200, 403, 403, 403],
    guest: [200, 201, 200, 403, 403, 403],
    reporter: [200, 201, 200, 403, 403, 403],
    developer: [200, 201, 200, 200, 201, 200],
  });
});
