import { Issues } from "@collab/issues-contract";
import { addMember, apiClient, createProject, eventually, watchEvents, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Emoji reactions on issues and their comments, and time tracking of issues, with @gitbeaker/rest
 * (IssueAwardEmojis, IssueNoteAwardEmojis, Issues time tracking): shapes, vote counts, system
 * notes, GitLab's refusals, and who may do what on a private and a public project.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("issue-reactions-time");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function world() {
  const [guest, reporter, developer, outsider] = await Promise.all(["guest", "reporter", "developer", "outsider"].map((u) => createGitbeakerUser(app, u)));
  const priv = await createProject(root, { name: "Secret", visibility: "private" });
  const pub = await createProject(root, { name: "Open", visibility: "public" });
  await Promise.all([priv, pub].flatMap((p) => [addMember(app, "projects", p.id, guest.id, 10), addMember(app, "projects", p.id, reporter.id, 20), addMember(app, "projects", p.id, developer.id, 30)]));
  const issue = async (projectId: number) => (await root.post(`/projects/${projectId}/issues`, { json: { title: "Slow page" } })).body as { id: number; iid: number };
  const [privIssue, pubIssue] = await Promise.all([issue(priv.id), issue(pub.id)]);
  return { guest, reporter, developer, outsider, priv, pub, privIssue, pubIssue };
}

test("reactions on an issue and its comment: shape, votes, duplicates, names, removal", async () => {
  const { developer, reporter, pub, pubIssue } = await world();
  const dev = developer.gl;

  const award = await dev.IssueAwardEmojis.award(pub.id, pubIssue.iid, "thumbsup");
  expect(award).toEqual({
    id: expect.any(Number),
    name: "thumbsup",
    user: expect.objectContaining({ id: developer.id, username: "developer" }),
    created_at: expect.stringMatching(ISO),
    updated_at: expect.stringMatching(ISO),
    awardable_id: pubIssue.id,
    awardable_type: "Issue",
    url: null,
  });
  // "+1" is thumbsup's alias: stored under the main name, so it counts as the same award.
  const again = await root.post(`/projects/${pub.id}/issues/${pubIssue.iid}/award_emoji`, { token: developer.token, json: { name: "+1" } });
  expect(again).toMatchObject({ status: 404, body: { message: "404 Award Emoji Name has already been taken Not Found" } });
  const bad = await root.post(`/projects/${pub.id}/issues/${pubIssue.iid}/award_emoji`, { token: developer.token, json: { name: "not_an_emoji" } });
  expect(bad).toMatchObject({ status: 404, body: { message: "404 Award Emoji Name is not a valid emoji name Not Found" } });
  const missing = await root.post(`/projects/${pub.id}/issues/${pubIssue.iid}/award_emoji`, { token: developer.token, json: {} });
  expect(missing).toMatchObject({ status: 400, body: { error: "name is missing" } });

  const down = await reporter.gl.IssueAwardEmojis.award(pub.id, pubIssue.iid, "-1");
  expect(down.name).toBe("thumbsdown");
  await reporter.gl.IssueAwardEmojis.award(pub.id, pubIssue.iid, "tada");
  expect(await dev.Issues.show(pubIssue.iid, { projectId: pub.id })).toMatchObject({ upvotes: 1, downvotes: 1 });

  const all = await dev.IssueAwardEmojis.all(pub.id, pubIssue.iid);
  expect(all.map((a) => [a.name, a.user.username])).toEqual([
    ["thumbsup", "developer"],
    ["thumbsdown", "reporter"],
    ["tada", "reporter"],
  ]);
  expect(await dev.IssueAwardEmojis.show(pub.id, pubIssue.iid, award.id)).toEqual(award);
  const paged = await root.get(`/projects/${pub.id}/issues/${pubIssue.iid}/award_emoji`, { query: { per_page: 2, page: 2 } });
  expect(paged.headers.get("x-total")).toBe("3");
  expect(paged.body.map((a: { name: string }) => a.name)).toEqual(["tada"]);

  // Only the awarder (or an administrator) removes an award: GitLab answers 401 to the others.
  expect(await failureStatus(dev.IssueAwardEmojis.remove(pub.id, pubIssue.iid, down.id))).toBe(401);
  await reporter.gl.IssueAwardEmojis.remove(pub.id, pubIssue.iid, down.id);
  expect((await root.delete(`/projects/${pub.id}/issues/${pubIssue.iid}/award_emoji/${award.id}`)).status).toBe(204);
  expect(await dev.Issues.show(pubIssue.iid, { projectId: pub.id })).toMatchObject({ upvotes: 0, downvotes: 0 });
  expect(await failureStatus(dev.IssueAwardEmojis.show(pub.id, pubIssue.iid, award.id))).toBe(404);

  // Comments take reactions of their own; they do not count as votes on the issue.
  const note = await dev.IssueNotes.create(pub.id, pubIssue.iid, "Seen on Firefox too");
  const onNote = await reporter.gl.IssueNoteAwardEmojis.award(pub.id, pubIssue.iid, note.id, "thumbsup");
  expect(onNote).toMatchObject({ name: "thumbsup", awardable_id: note.id, awardable_type: "Note", user: { username: "reporter" } });
  expect(await dev.IssueNoteAwardEmojis.all(pub.id, pubIssue.iid, note.id)).toEqual([onNote]);
  expect(await dev.IssueNoteAwardEmojis.show(pub.id, pubIssue.iid, note.id, onNote.id)).toEqual(onNote);
  expect(await dev.Issues.show(pubIssue.iid, { projectId: pub.id })).toMatchObject({ upvotes: 0 });
  // An award is found only under its own awardable.
  expect(await failureStatus(dev.IssueAwardEmojis.show(pub.id, pubIssue.iid, onNote.id))).toBe(404);
  expect(await failureStatus(dev.IssueNoteAwardEmojis.show(pub.id, pubIssue.iid, note.id + 999, onNote.id))).toBe(404);
  // System notes cannot be awarded.
  await dev.Issues.addTimeEstimate(pub.id, pubIssue.iid, "1h");
  const system = (await dev.IssueNotes.all(pub.id, pubIssue.iid)).find((n) => n.system)!;
  const onSystem = await root.post(`/projects/${pub.id}/issues/${pubIssue.iid}/notes/${system.id}/award_emoji`, { json: { name: "eyes" } });
  expect(onSystem).toMatchObject({ status: 404, body: { message: "404 Award Emoji Awardable cannot be awarded emoji Not Found" } });
  await reporter.gl.IssueNoteAwardEmojis.remove(pub.id, pubIssue.iid, note.id, onNote.id);
  expect(await dev.IssueNoteAwardEmojis.all(pub.id, pubIssue.iid, note.id)).toEqual([]);

  // Deleting a comment takes its reactions with it.
  await reporter.gl.IssueNoteAwardEmojis.award(pub.id, pubIssue.iid, note.id, "eyes");
  await dev.IssueNotes.remove(pub.id, pubIssue.iid, note.id);
  expect(await failureStatus(dev.IssueNoteAwardEmojis.all(pub.id, pubIssue.iid, note.id))).toBe(404);
});

test("time tracking of an issue: estimate, spent time, resets, system notes and GitLab's refusals", async () => {
  const { reporter, pub, pubIssue } = await world();
  const gl = reporter.gl;
  const P = `/projects/${pub.id}/issues/${pubIssue.iid}`;

  expect(await gl.Issues.showTimeStats(pub.id, pubIssue.iid)).toEqual({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
  const estimate = await root.post(`${P}/time_estimate`, { token: reporter.token, json: { duration: "1w 2d" } });
  expect(estimate).toMatchObject({ status: 200, body: { time_estimate: 7 * 8 * 3600, total_time_spent: 0, human_time_estimate: "1w 2d", human_total_time_spent: null } });

  const spent = await root.post(`${P}/add_spent_time`, { token: reporter.token, json: { duration: "3h30m", summary: "profiling" } });
  expect(spent).toMatchObject({ status: 201, body: { total_time_spent: 12_600, human_total_time_spent: "3h 30m", time_estimate: 201_600 } });
  expect(await gl.Issues.addSpentTime(pub.id, pubIssue.iid, "-30m")).toMatchObject({ total_time_spent: 10_800, human_total_time_spent: "3h" });

  // The issue itself shows the same stats.
  expect((await gl.Issues.show(pubIssue.iid, { projectId: pub.id })).time_stats).toEqual({ time_estimate: 201_600, total_time_spent: 10_800, human_time_estimate: "1w 2d", human_total_time_spent: "3h" });

  // Refusals leave everything as it was.
  const badEstimate = await root.post(`${P}/time_estimate`, { token: reporter.token, json: { duration: "soon" } });
  expect(badEstimate).toMatchObject({ status: 400, body: { message: "400 Bad request - Time estimate must have a valid format and be greater than or equal to zero." } });
  const negativeEstimate = await root.post(`${P}/time_estimate`, { token: reporter.token, json: { duration: "-1h" } });
  expect(negativeEstimate.status).toBe(400);
  const badSpent = await root.post(`${P}/add_spent_time`, { token: reporter.token, json: { duration: "a while" } });
  expect(badSpent).toMatchObject({ status: 400, body: { message: { "timelogs.time_spent": ["can't be blank"] } } });
  const tooMuch = await root.post(`${P}/add_spent_time`, { token: reporter.token, json: { duration: "-4h" } });
  expect(tooMuch).toMatchObject({ status: 400, body: { message: { base: ["Time to subtract exceeds the total time spent"] } } });
  const fiveYears = await root.post(`${P}/add_spent_time`, { token: reporter.token, json: { duration: "5y" } });
  expect(fiveYears).toMatchObject({ status: 400, body: { message: { base: ["Total time spent cannot exceed 4 years."] } } });
  const noDuration = await root.post(`${P}/add_spent_time`, { token: reporter.token, json: {} });
  expect(noDuration).toMatchObject({ status: 400, body: { error: "duration is missing" } });
  expect(await gl.Issues.showTimeStats(pub.id, pubIssue.iid)).toMatchObject({ time_estimate: 201_600, total_time_spent: 10_800 });

  expect(await gl.Issues.resetSpentTime(pub.id, pubIssue.iid)).toMatchObject({ total_time_spent: 0, human_total_time_spent: null, time_estimate: 201_600 });
  const reset = await root.post(`${P}/reset_time_estimate`, { token: reporter.token });
  expect(reset).toMatchObject({ status: 200, body: { time_estimate: 0, human_time_estimate: null, total_time_spent: 0 } });

  const notes = await gl.IssueNotes.all(pub.id, pubIssue.iid, { sort: "asc" });
  expect(notes.filter((n) => n.system).map((n) => [n.body, n.author.username])).toEqual([
    ["changed time estimate to 1w 2d", "reporter"],
    ["added 3h 30m of time spent", "reporter"],
    ["subtracted 30m of time spent", "reporter"],
    ["removed time spent", "reporter"],
    ["removed time estimate", "reporter"],
  ]);
});

test("who may react and track time on a private and a public project", async () => {
  const w = await world();
  const anonymous = apiClient(app.url);
  const callers: [string, ApiClient][] = [
    ["anonymous", anonymous],
    ["outsider", w.outsider.api],
    ["guest", w.guest.api],
    ["reporter", w.reporter.api],
    ["developer", w.developer.api],
  ];
  const emojis: Record<string, string> = { anonymous: "eyes", outsider: "tada", guest: "rocket", reporter: "heart", developer: "smile" };
  const outcomes = async (projectId: number, iid: number) => {
    const P = `/projects/${projectId}/issues/${iid}`;
    const out: Record<string, number[]> = {};
    for (const [who, as] of callers) {
      out[who] = [
        (await as.get(`${P}/award_emoji`)).status,
        (await as.post(`${P}/award_emoji`, { json: { name: emojis[who] } })).status,
        (await as.get(`${P}/time_stats`)).status,
        (await as.post(`${P}/time_estimate`, { json: { duration: "2h" } })).status,
        (await as.post(`${P}/add_spent_time`, { json: { duration: "1h" } })).status,
      ];
    }
    return out;
  };
  // [list awards, award, time stats, set estimate, add spent time]
  expect(await outcomes(w.priv.id, w.privIssue.iid)).toEqual({
    anonymous: [404, 404, 404, 401, 401],
    outsider: [404, 404, 404, 404, 404],
    guest: [200, 201, 200, 403, 403],
    reporter: [200, 201, 200, 200, 201],
    developer: [200, 201, 200, 200, 201],
  });
  expect(await outcomes(w.pub.id, w.pubIssue.iid)).toEqual({
    anonymous: [200, 404, 200, 401, 401],
    outsider: [200, 201, 200, 403, 403],
    guest: [200, 201, 200, 403, 403],
    reporter: [200, 201, 200, 200, 201],
    developer: [200, 201, 200, 200, 201],
  });
  const awards = (await root.get(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}/award_emoji`)).body as { name: string }[];
  expect(awards.map((a) => a.name)).toEqual(["tada", "rocket", "heart", "smile"]);
  expect((await root.get(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}/time_stats`)).body).toMatchObject({ time_estimate: 7200, total_time_spent: 7200 });
  // An administrator removes anybody's award; a member cannot.
  const [tada] = (await root.get(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}/award_emoji`)).body as { id: number }[];
  expect((await w.developer.api.delete(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}/award_emoji/${tada.id}`)).status).toBe(401);
  expect((await anonymous.delete(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}/award_emoji/${tada.id}`)).status).toBe(401);
  expect((await root.delete(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}/award_emoji/${tada.id}`)).status).toBe(204);
  // A confidential issue's reactions are hidden like the issue.
  await root.put(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}`, { json: { confidential: true } });
  expect((await w.outsider.api.get(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}/award_emoji`)).status).toBe(404);
  expect((await w.guest.api.get(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}/time_stats`)).status).toBe(404);
  expect((await w.reporter.api.get(`/projects/${w.pub.id}/issues/${w.pubIssue.iid}/award_emoji`)).status).toBe(200);
});

test("a locked discussion takes reactions from members only", async () => {
  const { outsider, guest, pub, pubIssue } = await world();
  await root.put(`/projects/${pub.id}/issues/${pubIssue.iid}`, { json: { discussion_locked: true } });
  expect(await failureStatus(outsider.gl.IssueAwardEmojis.award(pub.id, pubIssue.iid, "eyes"))).toBe(404);
  expect(await guest.gl.IssueAwardEmojis.award(pub.id, pubIssue.iid, "eyes")).toMatchObject({ name: "eyes" });
});

test("an award and its removal are announced once each, on the issue and on its comment (the Emoji Hook's source)", async () => {
  const { developer, reporter, pub, pubIssue } = await world();
  const watch = await watchEvents(app, [Issues.events.emojiAwarded, Issues.events.emojiRevoked]);
  try {
    const award = await developer.gl.IssueAwardEmojis.award(pub.id, pubIssue.iid, "tada");
    const note = await developer.gl.IssueNotes.create(pub.id, pubIssue.iid, "Seen on Firefox too");
    const onNote = await reporter.gl.IssueNoteAwardEmojis.award(pub.id, pubIssue.iid, note.id, "thumbsup");
    // A refused award (a duplicate) announces nothing.
    expect(await failureStatus(developer.gl.IssueAwardEmojis.award(pub.id, pubIssue.iid, "tada"))).toBe(404);
    await developer.gl.IssueAwardEmojis.remove(pub.id, pubIssue.iid, award.id);
    const seen = await eventually(() => {
      if (watch.seen.length < 3) throw new Error(`${watch.seen.length} award events so far`);
      return watch.seen;
    });
    const issueRef = { noteable_type: "Issue", noteable_id: pubIssue.id, noteable_iid: pubIssue.iid, project_id: pub.id };
    expect(seen.map((s) => [s.event, s.payload])).toEqual(
      expect.arrayContaining([
        [Issues.events.emojiAwarded.name, expect.objectContaining({ id: award.id, name: "tada", user_id: developer.id, awardable_type: "Issue", awardable_id: pubIssue.id, actor_id: developer.id, ...issueRef })],
        [Issues.events.emojiAwarded.name, expect.objectContaining({ id: onNote.id, name: "thumbsup", user_id: reporter.id, awardable_type: "Note", awardable_id: note.id, note_id: note.id, ...issueRef })],
        [Issues.events.emojiRevoked.name, expect.objectContaining({ id: award.id, name: "tada", actor_id: developer.id, ...issueRef })],
      ]),
    );
    expect(seen).toHaveLength(3);
  } finally {
    await watch.stop();
  }
});
