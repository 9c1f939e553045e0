import { Issues } from "@collab/issues-contract";
import { Snippets } from "@collab/snippets-contract";
import { apiClient, assertStatus as ok, eventually, redeliver, watchEvents, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Epics' events in the Events API through @gitbeaker/rest (Premium): alice plans in a private
 * group "team" (guest: Guest, reporter: Reporter) and a public group "open"; each caller reads her
 * contributions and sees only the epics they may read. Personal snippets record no event (GitLab's
 * Snippets::CreateService creates none).
 */
let app: TestApp;
let root: ApiClient;
let alice: GitbeakerUser;
let guest: GitbeakerUser;
let reporter: GitbeakerUser;
let outsider: GitbeakerUser;
let team: number;
let open: number;

beforeAll(async () => {
  app = await startApp("group-events");
});
afterAll(() => app.stop());

beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  [alice, guest, reporter, outsider] = await Promise.all(["alice", "guest", "reporter", "outsider"].map((u) => createGitbeakerUser(app, u)));
  team = ok(await root.post("/groups", { json: { name: "Team", path: "team", visibility: "private" } }), 201, "team").body.id;
  open = ok(await root.post("/groups", { json: { name: "Open", path: "open", visibility: "public" } }), 201, "open").body.id;
  for (const [group, user, level] of [[team, alice, 50], [team, guest, 10], [team, reporter, 20], [open, alice, 50]] as const) {
    ok(await root.post(`/groups/${group}/members`, { json: { user_id: user.id, access_level: level } }), 201, "member");
  }
});

interface Shown {
  action_name: string;
  target_title: string;
}
const titles = (events: Shown[]) => events.map((e) => `${e.action_name} ${e.target_title}`);

/** alice's events once all `n` are recorded and the last one reads `lastTitle` (as she reads them herself, oldest first). */
const aliceEvents = (n: number, lastTitle?: string) =>
  eventually(async () => {
    const events = await alice.gl.Events.all({ sort: "asc" });
    expect(events).toHaveLength(n);
    if (lastTitle !== undefined) expect(events[n - 1].target_title).toBe(lastTitle);
    return events;
  });

test("an epic's creation, closing and reopening reach who may read the group; a confidential one Planners and up", async () => {
  const roadmap = await alice.gl.Epics.create(team, "Roadmap");
  await alice.gl.Epics.edit(team, roadmap.iid, { state_event: "close" });
  await alice.gl.Epics.edit(team, roadmap.iid, { state_event: "reopen" });
  await alice.gl.Epics.create(team, "Secret plan", { confidential: true });
  const launch = await alice.gl.Epics.create(open, "Launch");
  await alice.gl.Epics.edit(open, launch.iid, { title: "Launch v2", description: "edits record nothing" });

  const own = await aliceEvents(5, "Launch v2");
  expect(titles(own as unknown as Shown[])).toEqual(["opened Roadmap", "closed Roadmap", "opened Roadmap", "opened Secret plan", "opened Launch v2"]);
  expect(own[0]).toMatchObject({ title: null, project_id: null, target_type: "Epic", target_id: roadmap.id, target_iid: roadmap.iid, author_id: alice.id, author_username: "alice" });
  expect(own[0].author).toMatchObject({ id: alice.id, username: "alice" });

  const seenBy = async (who: GitbeakerUser) => titles((await who.gl.Events.all({ userId: alice.id, sort: "asc" })) as unknown as Shown[]);
  expect(await seenBy(reporter)).toEqual(titles(own as unknown as Shown[]));
  expect(await seenBy(guest)).toEqual(["opened Roadmap", "closed Roadmap", "opened Roadmap", "opened Launch v2"]);
  expect(await seenBy(outsider)).toEqual(["opened Launch v2"]);

  const anonymous = ok(await apiClient(app.url).get(`/users/${alice.id}/events?sort=asc`), 200, "anonymous");
  expect(titles(anonymous.body)).toEqual(["opened Launch v2"]);
  // As in GitLab, a page is filtered after it is counted: the total still counts the hidden ones.
  expect(anonymous.headers.get("x-total")).toBe("5");

  const epicsOnly = ok(await reporter.api.get(`/users/${alice.id}/events?target_type=epic&action=closed`), 200, "filter");
  expect(titles(epicsOnly.body)).toEqual(["closed Roadmap"]);
});

test("a deleted epic takes its events with it; a redelivered event records nothing twice", async () => {
  const watch = await watchEvents(app, [Issues.events.epicOpened]);
  const roadmap = await alice.gl.Epics.create(team, "Roadmap");
  await alice.gl.Epics.create(team, "Later");
  await aliceEvents(2);
  const opened = await eventually(() => {
    const seen = watch.seen.find((e) => e.payload.id === roadmap.id);
    expect(seen).toBeDefined();
    return seen!;
  });
  await watch.stop();
  await redeliver(app, opened);
  expect(titles((await alice.gl.Events.all({ sort: "asc" })) as unknown as Shown[])).toEqual(["opened Roadmap", "opened Later"]);

  await alice.gl.Epics.remove(team, roadmap.iid);
  await eventually(async () => {
    const events = (await reporter.gl.Events.all({ userId: alice.id })) as unknown as Shown[];
    expect(titles(events)).toEqual(["opened Later"]);
  });
});

test("a personal snippet's creation records no event, whoever reads the snippet", async () => {
  const watch = await watchEvents(app, [Snippets.events.snippetCreated]);
  await alice.gl.Snippets.create("Mine", { files: [{ file_path: "a.txt", content: "x" }], visibility: "public" } as never);
  const created = await eventually(() => {
    expect(watch.seen).toHaveLength(1);
    return watch.seen[0];
  });
  await watch.stop();
  // Delivered once more and awaited (in one process): the consumer has seen it either way.
  await redeliver(app, created);
  await alice.gl.Epics.create(open, "Launch");
  expect(titles((await aliceEvents(1)) as unknown as Shown[])).toEqual(["opened Launch"]);
  expect(await outsider.gl.Events.all({ userId: alice.id, targetType: "snippet" })).toEqual([]);
});
