import { call } from "@collab/core";
import { ImportExport } from "@collab/import-export-contract";
import { addMember, apiClient, assertStatus as ok, createGroup, createProject, createUser, eventually, type ApiClient, type ApiResponse, type TestApp, type TestUser } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Every nested id of a path is looked up inside the parent the path names. For each nested
 * resource of the route table, the child is made in a FOREIGN parent (another project, issue,
 * group, schedule, service account, …), then addressed through the caller's OWN parent with every
 * method the routes allow: each answer must be GitLab's 404 (a JSON object whose only key is
 * `message` or `error`, starting with "404"), and the foreign child must be exactly as it was when
 * root reads it again through its real parent.
 *
 * Callers: alice, Owner of group "alpha" and of its project "alpha/app", and root (an
 * administrator sees everything, yet a child of B addressed through A is still 404). The foreign
 * parents belong to bob: "bravo" (public: alice can read it) and "charlie" (private: she cannot).
 */

// The import/export worker's timer stays off in the embedded app: the export test ticks it.
process.env.IMPORT_EXPORT_TICK_MS ??= "0";

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("nested-ids");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

// ---- the refusal check ----------------------------------------------------------------------------

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** One request: method, path, and a JSON body (or, for GET and DELETE, query params). */
type Attempt = [Method, string, Record<string, unknown>?];

function send(api: ApiClient, [method, path, params]: Attempt): Promise<ApiResponse> {
  switch (method) {
    case "GET":
      return api.get(path, { query: params as Record<string, string> });
    case "DELETE":
      return api.delete(path, { query: params as Record<string, string> });
    case "POST":
      return api.post(path, { json: params ?? {} });
    case "PUT":
      return api.put(path, { json: params ?? {} });
    case "PATCH":
      return api.patch(path, { json: params ?? {} });
  }
}

/** GitLab's 404: `{"message": "404 …"}` or `{"error": "404 …"}`, nothing else. */
function isGitLab404(res: ApiResponse): boolean {
  const body = res.body as unknown;
  if (res.status !== 404 || typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  if (keys.length !== 1 || (keys[0] !== "message" && keys[0] !== "error")) return false;
  const text = (body as Record<string, unknown>)[keys[0]];
  return typeof text === "string" && text.startsWith("404");
}

/** Every attempt by every caller answers GitLab's 404; all failures are reported at once. */
async function expectAll404(callers: Record<string, ApiClient>, attempts: Attempt[]) {
  const failures: string[] = [];
  for (const [who, api] of Object.entries(callers)) {
    for (const attempt of attempts) {
      const res = await send(api, attempt);
      if (!isGitLab404(res)) failures.push(`${who}: ${attempt[0]} ${attempt[1]} → ${res.status} ${res.text.slice(0, 300)}`);
    }
  }
  expect(failures).toEqual([]);
}

/** Root's view of these paths (each must answer 200), to compare before and after. */
async function snapshot(paths: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const path of paths) out.push(ok(await root.get(path), 200, `GET ${path}`).body);
  return out;
}

/**
 * Snapshots `paths` as root, runs the attempts (all must be 404) as each caller, and checks that
 * root reads exactly the same afterwards.
 */
async function expectUntouched(paths: string[], callers: Record<string, ApiClient>, attempts: Attempt[]) {
  const before = await snapshot(paths);
  await expectAll404(callers, attempts);
  expect(await snapshot(paths)).toEqual(before);
}

// ---- the world -----------------------------------------------------------------------------------

interface Parent {
  /** "public" (alice can read it) or "private" (she cannot). */
  visibility: "public" | "private";
  group: { id: number; full_path: string };
  project: { id: number; path_with_namespace: string };
}

interface World {
  alice: TestUser;
  bob: TestUser;
  /** alice's own group and project (she is Owner of both). */
  mine: Parent;
  /** bob's parents: bravo (public) and charlie (private). */
  foreign: Parent[];
  /** alice and root: the callers of every attempt. */
  callers: Record<string, ApiClient>;
}

async function parent(owner: TestUser, path: string, visibility: "public" | "private"): Promise<Parent> {
  const group = await createGroup(owner.api, path, path, { visibility });
  const project = await createProject(owner.api, { name: "app", namespace_id: group.id, visibility, initialize_with_readme: true });
  return { visibility, group, project };
}

async function world(): Promise<World> {
  const alice = await createUser(app, "alice");
  const bob = await createUser(app, "bob");
  const mine = await parent(alice, "alpha", "private");
  const foreign = [await parent(bob, "bravo", "public"), await parent(bob, "charlie", "private")];
  return { alice, bob, mine, foreign, callers: { alice: alice.api, root } };
}

const P = (project: { id: number }) => `/projects/${project.id}`;
const G = (group: { id: number }) => `/groups/${group.id}`;

async function createIssue(api: ApiClient, projectId: number, title: string) {
  return ok(await api.post(`/projects/${projectId}/issues`, { json: { title } }), 201, `issue ${title}`).body as { id: number; iid: number };
}

async function comment(api: ApiClient, projectId: number, iid: number, body: string) {
  return ok(await api.post(`/projects/${projectId}/issues/${iid}/notes`, { json: { body } }), 201, `note ${body}`).body as { id: number };
}

async function thread(api: ApiClient, projectId: number, iid: number, body: string) {
  const res = ok(await api.post(`/projects/${projectId}/issues/${iid}/discussions`, { json: { body } }), 201, `thread ${body}`).body;
  return { id: res.id as string, noteId: res.notes[0].id as number };
}

async function newMilestone(api: ApiClient, base: string, title: string) {
  return ok(await api.post(`${base}/milestones`, { json: { title, description: "foreign" } }), 201, `milestone ${title}`).body as { id: number; iid: number };
}

// ---- merge requests --------------------------------------------------------------------------------

async function createMergeRequest(api: ApiClient, projectId: number, branch: string) {
  ok(await api.post(`/projects/${projectId}/repository/branches`, { json: { branch, ref: "main" } }), 201, `branch ${branch}`);
  return ok(await api.post(`/projects/${projectId}/merge_requests`, { json: { title: branch, source_branch: branch, target_branch: "main" } }), 201, `merge request ${branch}`).body as {
    id: number;
    iid: number;
  };
}

describe("merge requests", () => {
  test("merge request of another project → 404 through my project (GET, PUT, merge, DELETE)", async () => {
    const w = await world();
    const own = await createMergeRequest(w.alice.api, w.mine.project.id, "mine"); // iid 1: my project has no iid 2
    for (const f of w.foreign) {
      await createMergeRequest(root, f.project.id, "first");
      const second = await createMergeRequest(root, f.project.id, "second");
      expect(second.iid).toBe(2);
      const base = `${P(w.mine.project)}/merge_requests/${second.iid}`;
      await expectUntouched(
        [`${P(f.project)}/merge_requests/${second.iid}`, `${P(f.project)}/merge_requests`, `${P(f.project)}/repository/branches`, `${P(w.mine.project)}/merge_requests`],
        w.callers,
        [
          ["GET", base],
          ["PUT", base, { title: "hijacked", state_event: "close" }],
          ["PUT", `${base}/merge`],
          ["DELETE", base],
        ],
      );
    }
    expect(ok(await w.alice.api.get(`${P(w.mine.project)}/merge_requests/${own.iid}`), 200, "own merge request").body.title).toBe("mine");
  });
});

// ---- issues, notes, discussions, state events ----------------------------------------------------

describe("issues and what hangs below them", () => {
  test("issue of another project → 404 through my project (GET, PUT, DELETE, reorder, move, clone, subscribe, unsubscribe, notes, discussions, state events)", async () => {
    const w = await world();
    const own = await createIssue(w.alice.api, w.mine.project.id, "mine"); // iid 1: my project has no iid 2
    for (const f of w.foreign) {
      const first = await createIssue(root, f.project.id, "foreign first");
      const second = await createIssue(root, f.project.id, "foreign second");
      expect(second.iid).toBe(2);
      await comment(root, f.project.id, second.iid, "foreign remark");
      const base = `${P(w.mine.project)}/issues/${second.iid}`;
      await expectUntouched(
        [
          `${P(f.project)}/issues/${second.iid}`,
          `${P(f.project)}/issues`,
          `${P(f.project)}/issues/${second.iid}/notes`,
          `${P(f.project)}/issues/${second.iid}/discussions`,
          `${P(f.project)}/issues/${second.iid}/resource_state_events`,
          `${P(w.mine.project)}/issues`,
        ],
        w.callers,
        [
          ["GET", base],
          ["PUT", base, { title: "hijacked", state_event: "close" }],
          ["PUT", `${base}/reorder`, { move_after_id: first.id }],
          ["POST", `${base}/move`, { to_project_id: w.mine.project.id }],
          ["POST", `${base}/clone`, { to_project_id: w.mine.project.id, with_notes: true }],
          ["POST", `${base}/subscribe`],
          ["POST", `${base}/unsubscribe`],
          ["GET", `${base}/notes`],
          ["POST", `${base}/notes`, { body: "planted" }],
          ["GET", `${base}/discussions`],
          ["POST", `${base}/discussions`, { body: "planted" }],
          ["GET", `${base}/resource_state_events`],
          ["DELETE", base],
        ],
      );
    }
    expect(ok(await w.alice.api.get(`${P(w.mine.project)}/issues/${own.iid}`), 200, "own issue").body.title).toBe("mine");
  });

  test("ids in my issue's params name children of my project only: a foreign milestone_id unassigns, a foreign move_after_id/move_before_id is 422", async () => {
    const w = await world();
    const own = await createIssue(w.alice.api, w.mine.project.id, "mine");
    await createIssue(w.alice.api, w.mine.project.id, "neighbour");
    const ownPath = `${P(w.mine.project)}/issues/${own.iid}`;
    for (const f of w.foreign) {
      const milestone = await newMilestone(root, P(f.project), `foreign-${f.visibility}`);
      const issue = await createIssue(root, f.project.id, "foreign");
      const paths = [`${P(f.project)}/milestones/${milestone.id}`, `${P(f.project)}/issues/${issue.iid}`, `${P(f.project)}/issues`];
      const before = await snapshot([...paths, ownPath]);
      for (const [who, api] of Object.entries(w.callers)) {
        const created = await api.post(`${P(w.mine.project)}/issues`, { json: { title: `by ${who}`, milestone_id: milestone.id } });
        expect({ who, status: created.status, milestone: created.body.milestone }).toEqual({ who, status: 201, milestone: null });
        for (const move of [{ move_after_id: issue.id }, { move_before_id: issue.id }, { move_after_id: issue.id, move_before_id: issue.id }])
          expect({ who, move, status: (await api.put(`${ownPath}/reorder`, { json: move })).status }).toEqual({ who, move, status: 422 });
      }
      expect(await snapshot([...paths, ownPath])).toEqual(before);
      for (const api of Object.values(w.callers)) {
        const updated = await api.put(ownPath, { json: { milestone_id: milestone.id } });
        expect({ status: updated.status, milestone: updated.body.milestone }).toEqual({ status: 200, milestone: null });
      }
    }
  });

  test("note of another project's issue → 404 through my issue (GET, PUT, DELETE)", async () => {
    const w = await world();
    const own = await createIssue(w.alice.api, w.mine.project.id, "mine");
    await comment(w.alice.api, w.mine.project.id, own.iid, "my remark");
    // Another issue of my own project is another parent too.
    const sibling = await createIssue(w.alice.api, w.mine.project.id, "sibling");
    const siblingNote = await comment(w.alice.api, w.mine.project.id, sibling.iid, "sibling remark");
    const targets = [{ path: `${P(w.mine.project)}/issues/${sibling.iid}`, noteId: siblingNote.id }];
    for (const f of w.foreign) {
      const issue = await createIssue(root, f.project.id, "foreign"); // iid 1, like mine
      const note = await comment(root, f.project.id, issue.iid, "foreign remark");
      targets.push({ path: `${P(f.project)}/issues/${issue.iid}`, noteId: note.id });
    }
    const via = `${P(w.mine.project)}/issues/${own.iid}/notes`;
    for (const t of targets) {
      await expectUntouched(
        [`${t.path}/notes/${t.noteId}`, `${t.path}/notes`, t.path, via],
        w.callers,
        [
          ["GET", `${via}/${t.noteId}`],
          ["PUT", `${via}/${t.noteId}`, { body: "hijacked" }],
          ["DELETE", `${via}/${t.noteId}`],
        ],
      );
    }
  });

  test("award of another issue or of another issue's note → 404 through my issue and my note (GET, DELETE)", async () => {
    const w = await world();
    const own = await createIssue(w.alice.api, w.mine.project.id, "mine");
    const ownNote = await comment(w.alice.api, w.mine.project.id, own.iid, "my remark");
    const award = async (api: ApiClient, path: string) => ok(await api.post(`${path}/award_emoji`, { json: { name: "eyes" } }), 201, `award on ${path}`).body as { id: number };
    await award(w.alice.api, `${P(w.mine.project)}/issues/${own.iid}`);
    // Another issue of my own project, and its note, are other parents too.
    const sibling = await createIssue(w.alice.api, w.mine.project.id, "sibling");
    const siblingNote = await comment(w.alice.api, w.mine.project.id, sibling.iid, "sibling remark");
    const siblingPath = `${P(w.mine.project)}/issues/${sibling.iid}`;
    const targets = [{ path: siblingPath, issueAward: await award(w.alice.api, siblingPath), noteAward: await award(w.alice.api, `${siblingPath}/notes/${siblingNote.id}`) }];
    for (const f of w.foreign) {
      const issue = await createIssue(root, f.project.id, "foreign");
      const note = await comment(root, f.project.id, issue.iid, "foreign remark");
      const path = `${P(f.project)}/issues/${issue.iid}`;
      targets.push({ path, issueAward: await award(root, path), noteAward: await award(root, `${path}/notes/${note.id}`) });
    }
    const viaIssue = `${P(w.mine.project)}/issues/${own.iid}/award_emoji`;
    const viaNote = `${P(w.mine.project)}/issues/${own.iid}/notes/${ownNote.id}/award_emoji`;
    for (const t of targets) {
      await expectUntouched(
        [`${t.path}/award_emoji`, viaIssue, viaNote, `${P(w.mine.project)}/issues/${own.iid}`],
        w.callers,
        [t.issueAward.id, t.noteAward.id].flatMap((id): Attempt[] => [
          ["GET", `${viaIssue}/${id}`],
          ["DELETE", `${viaIssue}/${id}`],
          ["GET", `${viaNote}/${id}`],
          ["DELETE", `${viaNote}/${id}`],
        ]),
      );
    }
  });

  test("discussion of another project's issue → 404 through my issue (GET, reply)", async () => {
    const w = await world();
    const own = await createIssue(w.alice.api, w.mine.project.id, "mine");
    await thread(w.alice.api, w.mine.project.id, own.iid, "my thread");
    const sibling = await createIssue(w.alice.api, w.mine.project.id, "sibling");
    const siblingThread = await thread(w.alice.api, w.mine.project.id, sibling.iid, "sibling thread");
    const targets = [{ path: `${P(w.mine.project)}/issues/${sibling.iid}`, discussionId: siblingThread.id }];
    for (const f of w.foreign) {
      const issue = await createIssue(root, f.project.id, "foreign");
      const t = await thread(root, f.project.id, issue.iid, "foreign thread");
      targets.push({ path: `${P(f.project)}/issues/${issue.iid}`, discussionId: t.id });
    }
    const via = `${P(w.mine.project)}/issues/${own.iid}/discussions`;
    for (const t of targets) {
      await expectUntouched(
        [`${t.path}/discussions/${t.discussionId}`, `${t.path}/discussions`, `${t.path}/notes`, t.path, via],
        w.callers,
        [
          ["GET", `${via}/${t.discussionId}`],
          ["POST", `${via}/${t.discussionId}/notes`, { body: "planted reply" }],
        ],
      );
    }
  });

  test("note of another thread → 404 through my thread (GET, PUT, DELETE)", async () => {
    const w = await world();
    const own = await createIssue(w.alice.api, w.mine.project.id, "mine");
    const mineThread = await thread(w.alice.api, w.mine.project.id, own.iid, "my thread");
    // Another thread of the same issue, and one of another issue of my project.
    const neighbour = await thread(w.alice.api, w.mine.project.id, own.iid, "neighbour thread");
    const sibling = await createIssue(w.alice.api, w.mine.project.id, "sibling");
    const siblingThread = await thread(w.alice.api, w.mine.project.id, sibling.iid, "sibling thread");
    const ownPath = `${P(w.mine.project)}/issues/${own.iid}`;
    const targets = [
      { path: ownPath, discussionId: neighbour.id, noteId: neighbour.noteId },
      { path: `${P(w.mine.project)}/issues/${sibling.iid}`, discussionId: siblingThread.id, noteId: siblingThread.noteId },
    ];
    for (const f of w.foreign) {
      const issue = await createIssue(root, f.project.id, "foreign");
      const t = await thread(root, f.project.id, issue.iid, "foreign thread");
      targets.push({ path: `${P(f.project)}/issues/${issue.iid}`, discussionId: t.id, noteId: t.noteId });
    }
    for (const t of targets) {
      const viaMine = `${ownPath}/discussions/${mineThread.id}/notes/${t.noteId}`;
      // Its own thread id under my issue: the issue in the path is not the thread's.
      const viaItsThread = `${ownPath}/discussions/${t.discussionId}/notes/${t.noteId}`;
      const attempts: Attempt[] = [
        ["GET", viaMine],
        ["PUT", viaMine, { body: "hijacked" }],
        ["DELETE", viaMine],
      ];
      if (t.path !== ownPath) attempts.push(["GET", viaItsThread], ["PUT", viaItsThread, { body: "hijacked" }], ["DELETE", viaItsThread]);
      await expectUntouched([`${t.path}/discussions/${t.discussionId}`, `${t.path}/discussions/${t.discussionId}/notes/${t.noteId}`, `${ownPath}/discussions/${mineThread.id}`], w.callers, attempts);
    }
  });

  test("state event of another project's issue → 404 through my issue (GET)", async () => {
    const w = await world();
    const own = await createIssue(w.alice.api, w.mine.project.id, "mine");
    const sibling = await createIssue(w.alice.api, w.mine.project.id, "sibling");
    ok(await w.alice.api.put(`${P(w.mine.project)}/issues/${sibling.iid}`, { json: { state_event: "close" } }), 200, "close sibling");
    const siblingEvent = ok(await root.get(`${P(w.mine.project)}/issues/${sibling.iid}/resource_state_events`), 200, "sibling events").body[0];
    const targets = [{ path: `${P(w.mine.project)}/issues/${sibling.iid}`, eventId: siblingEvent.id as number }];
    for (const f of w.foreign) {
      const issue = await createIssue(root, f.project.id, "foreign");
      ok(await root.put(`${P(f.project)}/issues/${issue.iid}`, { json: { state_event: "close" } }), 200, "close");
      const [event] = ok(await root.get(`${P(f.project)}/issues/${issue.iid}/resource_state_events`), 200, "events").body;
      targets.push({ path: `${P(f.project)}/issues/${issue.iid}`, eventId: event.id });
    }
    const via = `${P(w.mine.project)}/issues/${own.iid}/resource_state_events`;
    for (const t of targets) {
      await expectUntouched([`${t.path}/resource_state_events/${t.eventId}`, `${t.path}/resource_state_events`, via], w.callers, [["GET", `${via}/${t.eventId}`]]);
    }
  });

  test("issue link of another issue (of my project or another) → 404 through my issue (GET, DELETE)", async () => {
    const w = await world();
    const own = await createIssue(w.alice.api, w.mine.project.id, "mine");
    const link = async (api: ApiClient, project: Parent["project"], title: string) => {
      const [a, b] = [await createIssue(api, project.id, `${title} a`), await createIssue(api, project.id, `${title} b`)];
      ok(await api.post(`${P(project)}/issues/${a.iid}/links`, { json: { target_project_id: project.id, target_issue_iid: b.iid } }), 201, "link");
      const [linked] = ok(await api.get(`${P(project)}/issues/${a.iid}/links`), 200, "links").body as { issue_link_id: number }[];
      return { path: `${P(project)}/issues/${a.iid}`, linkId: linked.issue_link_id };
    };
    const targets = [await link(w.alice.api, w.mine.project, "sibling")];
    for (const f of w.foreign) targets.push(await link(root, f.project, "foreign"));
    const via = `${P(w.mine.project)}/issues/${own.iid}/links`;
    for (const t of targets) {
      await expectUntouched([`${t.path}/links/${t.linkId}`, `${t.path}/links`, via], w.callers, [
        ["GET", `${via}/${t.linkId}`],
        ["DELETE", `${via}/${t.linkId}`],
      ]);
    }
  });
});

// ---- labels and milestones -----------------------------------------------------------------------

describe("epics' conversations", () => {
  const createEpic = async (api: ApiClient, groupId: number, title: string) =>
    ok(await api.post(`/groups/${groupId}/epics`, { json: { title } }), 201, `epic ${title}`).body as { id: number; iid: number };

  test("epic of another group → 404 through my group (notes, discussions, state events); its note, thread and event → 404 through my epic", async () => {
    const w = await world();
    const own = await createEpic(w.alice.api, w.mine.group.id, "mine");
    ok(await w.alice.api.post(`${G(w.mine.group)}/epics/${own.id}/notes`, { json: { body: "my remark" } }), 201, "my note");
    const mine = `${G(w.mine.group)}/epics/${own.id}`;
    for (const f of w.foreign) {
      const epic = await createEpic(root, f.group.id, `foreign-${f.visibility}`);
      const real = `${G(f.group)}/epics/${epic.id}`;
      const note = ok(await root.post(`${real}/notes`, { json: { body: "foreign remark" } }), 201, "foreign note").body as { id: number };
      const thread = ok(await root.post(`${real}/discussions`, { json: { body: "foreign thread" } }), 201, "foreign thread").body as { id: string; notes: { id: number }[] };
      ok(await root.put(`${G(f.group)}/epics/${epic.iid}`, { json: { state_event: "close" } }), 200, "close");
      const [event] = ok(await root.get(`${real}/resource_state_events`), 200, "events").body as { id: number }[];
      // The foreign epic through my group.
      const through = `${G(w.mine.group)}/epics/${epic.id}`;
      await expectUntouched(
        [`${real}/notes`, `${real}/discussions`, `${real}/resource_state_events`, `${mine}/notes`],
        w.callers,
        [
          ["GET", `${through}/notes`],
          ["POST", `${through}/notes`, { body: "hijacked" }],
          ["GET", `${through}/notes/${note.id}`],
          ["PUT", `${through}/notes/${note.id}`, { body: "hijacked" }],
          ["DELETE", `${through}/notes/${note.id}`],
          ["GET", `${through}/discussions`],
          ["POST", `${through}/discussions`, { body: "hijacked" }],
          ["GET", `${through}/resource_state_events`],
          // Its children through my own epic.
          ["GET", `${mine}/notes/${note.id}`],
          ["PUT", `${mine}/notes/${note.id}`, { body: "hijacked" }],
          ["DELETE", `${mine}/notes/${note.id}`],
          ["GET", `${mine}/discussions/${thread.id}`],
          ["POST", `${mine}/discussions/${thread.id}/notes`, { body: "hijacked" }],
          ["GET", `${mine}/discussions/${thread.id}/notes/${thread.notes[0].id}`],
          ["PUT", `${mine}/discussions/${thread.id}/notes/${thread.notes[0].id}`, { body: "hijacked" }],
          ["DELETE", `${mine}/discussions/${thread.id}/notes/${thread.notes[0].id}`],
          ["GET", `${mine}/resource_state_events/${event.id}`],
        ],
      );
    }
  });
  test("epic-issue association of another group's epic (or of another epic of my group) → 404 through my epic (PUT, DELETE)", async () => {
    const w = await world();
    const myEpic = ok(await w.alice.api.post(`${G(w.mine.group)}/epics`, { json: { title: "Mine" } }), 201, "my epic").body as { iid: number };
    const sibling = ok(await w.alice.api.post(`${G(w.mine.group)}/epics`, { json: { title: "Sibling" } }), 201, "sibling epic").body as { iid: number };
    const siblingLink = ok(await w.alice.api.post(`${G(w.mine.group)}/epics/${sibling.iid}/issues/${(await createIssue(w.alice.api, w.mine.project.id, "Sibling's")).id}`), 201, "link").body;
    const links = [siblingLink.id as number];
    const watched = [`${G(w.mine.group)}/epics/${sibling.iid}/issues`];
    for (const f of w.foreign) {
      const epic = ok(await w.bob.api.post(`${G(f.group)}/epics`, { json: { title: "Theirs" } }), 201, "foreign epic").body as { iid: number };
      const issue = await createIssue(w.bob.api, f.project.id, "Theirs");
      links.push(ok(await w.bob.api.post(`${G(f.group)}/epics/${epic.iid}/issues/${issue.id}`), 201, "foreign link").body.id);
      watched.push(`${G(f.group)}/epics/${epic.iid}/issues`);
    }
    const mine = `${G(w.mine.group)}/epics/${myEpic.iid}/issues`;
    await expectUntouched(
      watched,
      w.callers,
      links.flatMap((id): Attempt[] => [
        ["PUT", `${mine}/${id}`, { move_after_id: id }],
        ["DELETE", `${mine}/${id}`],
      ]),
    );
  });
});

describe("labels and milestones", () => {
  const labelAttempts = (base: string, label: { id: number; name: string }): Attempt[] => [
    ["GET", `${base}/labels/${label.id}`],
    ["GET", `${base}/labels/${encodeURIComponent(label.name)}`],
    ["PUT", `${base}/labels/${label.id}`, { new_name: "hijacked", color: "#000000" }],
    ["PUT", `${base}/labels/${encodeURIComponent(label.name)}`, { new_name: "hijacked" }],
    // The older forms, naming the label in the params.
    ["PUT", `${base}/labels`, { label_id: label.id, new_name: "hijacked" }],
    ["PUT", `${base}/labels`, { name: label.name, color: "#000000" }],
    ["DELETE", `${base}/labels`, { label_id: String(label.id) }],
    ["DELETE", `${base}/labels`, { name: label.name }],
    ["DELETE", `${base}/labels/${label.id}`],
    ["DELETE", `${base}/labels/${encodeURIComponent(label.name)}`],
  ];

  const newLabel = async (api: ApiClient, base: string, name: string) =>
    ok(await api.post(`${base}/labels`, { json: { name, color: "#FF0000", description: "foreign" } }), 201, `label ${name}`).body as { id: number; name: string };

  test("project label of another project → 404 through my project (GET, PUT, DELETE; by id and name, path and body forms)", async () => {
    const w = await world();
    await newLabel(w.alice.api, P(w.mine.project), "mine");
    for (const f of w.foreign) {
      const label = await newLabel(root, P(f.project), `foreign-${f.visibility}`);
      // A label of the foreign group is no ancestor label of my project either.
      const groupLabel = await newLabel(root, G(f.group), `foreign-group-${f.visibility}`);
      for (const l of [label, groupLabel]) {
        const real = l === label ? P(f.project) : G(f.group);
        await expectUntouched([`${real}/labels/${l.id}`, `${real}/labels`, `${P(w.mine.project)}/labels`], w.callers, labelAttempts(P(w.mine.project), l));
      }
    }
  });

  test("group label of another group (or of my subgroup) → 404 through my group (GET, PUT, DELETE; by id and name, path and body forms)", async () => {
    const w = await world();
    await newLabel(w.alice.api, G(w.mine.group), "mine");
    const sub = await createGroup(w.alice.api, "sub", "sub", { parent_id: w.mine.group.id });
    const targets = [{ real: G(sub), label: await newLabel(w.alice.api, G(sub), "in-subgroup") }];
    for (const f of w.foreign) {
      targets.push({ real: G(f.group), label: await newLabel(root, G(f.group), `foreign-${f.visibility}`) });
      // A project label of the foreign group's project, through my group.
      targets.push({ real: P(f.project), label: await newLabel(root, P(f.project), `foreign-project-${f.visibility}`) });
    }
    for (const { real, label } of targets) {
      const attempts = labelAttempts(G(w.mine.group), label);
      if (real !== G(sub)) attempts.push(["GET", `${G(w.mine.group)}/labels/${label.id}`, { include_descendant_groups: "true", only_group_labels: "false" }]);
      await expectUntouched([`${real}/labels/${label.id}`, `${real}/labels`, `${G(w.mine.group)}/labels`], w.callers, attempts);
    }
  });

  const milestoneAttempts = (base: string, id: number): Attempt[] => [
    ["GET", `${base}/milestones/${id}`],
    ["PUT", `${base}/milestones/${id}`, { title: "hijacked", state_event: "close" }],
    ["DELETE", `${base}/milestones/${id}`],
  ];

  test("project milestone of another project (or my group's milestone) → 404 through my project (GET, PUT, DELETE)", async () => {
    const w = await world();
    const mine = await newMilestone(w.alice.api, P(w.mine.project), "mine");
    // My group's milestone is the group's, not the project's: single-milestone routes never reach it.
    const targets = [{ real: G(w.mine.group), milestone: await newMilestone(w.alice.api, G(w.mine.group), "of my group") }];
    for (const f of w.foreign) {
      const m = await newMilestone(root, P(f.project), `foreign-${f.visibility}`);
      expect(m.iid).toBe(mine.iid); // same iid, another project
      targets.push({ real: P(f.project), milestone: m });
      targets.push({ real: G(f.group), milestone: await newMilestone(root, G(f.group), `foreign-group-${f.visibility}`) });
    }
    for (const { real, milestone } of targets) {
      await expectUntouched([`${real}/milestones/${milestone.id}`, `${real}/milestones`, `${P(w.mine.project)}/milestones`], w.callers, milestoneAttempts(P(w.mine.project), milestone.id));
    }
  });

  test("group milestone of another group (or of my subgroup or project) → 404 through my group (GET, PUT, DELETE)", async () => {
    const w = await world();
    await newMilestone(w.alice.api, G(w.mine.group), "mine");
    const sub = await createGroup(w.alice.api, "sub", "sub", { parent_id: w.mine.group.id });
    const targets = [
      { real: G(sub), milestone: await newMilestone(w.alice.api, G(sub), "in-subgroup") },
      { real: P(w.mine.project), milestone: await newMilestone(w.alice.api, P(w.mine.project), "in-my-project") },
    ];
    for (const f of w.foreign) {
      targets.push({ real: G(f.group), milestone: await newMilestone(root, G(f.group), `foreign-${f.visibility}`) });
      targets.push({ real: P(f.project), milestone: await newMilestone(root, P(f.project), `foreign-project-${f.visibility}`) });
    }
    for (const { real, milestone } of targets) {
      await expectUntouched([`${real}/milestones/${milestone.id}`, `${real}/milestones`, `${G(w.mine.group)}/milestones`], w.callers, milestoneAttempts(G(w.mine.group), milestone.id));
    }
  });
});

// ---- members ---------------------------------------------------------------------------------------

describe("members", () => {
  const memberAttempts = (base: string, userId: number): Attempt[] => [
    ["GET", `${base}/members/${userId}`],
    ["GET", `${base}/members/all/${userId}`],
    ["PUT", `${base}/members/${userId}`, { access_level: 50 }],
    ["DELETE", `${base}/members/${userId}`],
  ];

  test("project member of another project → 404 through my project (GET, GET all, PUT, DELETE)", async () => {
    const w = await world();
    const carol = await createUser(app, "carol");
    for (const f of w.foreign) await addMember(app, "projects", f.project.id, carol.id, 30);
    const real = w.foreign.map((f) => `${P(f.project)}/members/${carol.id}`);
    await expectUntouched([...real, `${P(w.mine.project)}/members`, `${P(w.mine.project)}/members/all`], w.callers, memberAttempts(P(w.mine.project), carol.id));
    // bob, Owner of the foreign groups, is no member of my project either.
    await expectUntouched([`${G(w.foreign[0].group)}/members/${w.bob.id}`], w.callers, memberAttempts(P(w.mine.project), w.bob.id));
  });

  test("member of my project's group → 404 as a direct member of my project (GET, PUT, DELETE); /members/all finds it", async () => {
    const w = await world();
    const dave = await createUser(app, "dave");
    await addMember(app, "groups", w.mine.group.id, dave.id, 30);
    const via = `${P(w.mine.project)}/members/${dave.id}`;
    await expectUntouched([`${G(w.mine.group)}/members/${dave.id}`, `${G(w.mine.group)}/members`, `${P(w.mine.project)}/members`], w.callers, [
      ["GET", via],
      ["PUT", via, { access_level: 40 }],
      ["DELETE", via],
    ]);
    expect(ok(await w.alice.api.get(`${P(w.mine.project)}/members/all/${dave.id}`), 200, "inherited").body).toMatchObject({ id: dave.id, access_level: 30 });
  });

  test("group member of another group (or of my subgroup) → 404 through my group (GET, GET all, PUT, DELETE)", async () => {
    const w = await world();
    const carol = await createUser(app, "carol");
    const erin = await createUser(app, "erin");
    for (const f of w.foreign) await addMember(app, "groups", f.group.id, carol.id, 30);
    const sub = await createGroup(w.alice.api, "sub", "sub", { parent_id: w.mine.group.id });
    await addMember(app, "groups", sub.id, erin.id, 30);
    const real = [...w.foreign.map((f) => `${G(f.group)}/members/${carol.id}`), `${G(sub)}/members/${erin.id}`];
    const mine = [`${G(w.mine.group)}/members`, `${G(w.mine.group)}/members/all`];
    await expectUntouched([...real, ...mine], w.callers, [...memberAttempts(G(w.mine.group), carol.id), ...memberAttempts(G(w.mine.group), erin.id)]);
  });
});

// ---- repository refs -------------------------------------------------------------------------------

describe("repository refs", () => {
  test("branch and tag of another project → 404 through my project (GET, DELETE)", async () => {
    const w = await world();
    const base = `${P(w.mine.project)}/repository`;
    for (const f of w.foreign) {
      const real = `${P(f.project)}/repository`;
      const branch = `only-in-${f.visibility}`;
      const tag = `v-${f.visibility}`;
      ok(await root.post(`${real}/branches`, { json: { branch, ref: "main" } }), 201, "branch");
      ok(await root.post(`${real}/tags`, { json: { tag_name: tag, ref: "main" } }), 201, "tag");
      await expectUntouched([`${real}/branches/${branch}`, `${real}/tags/${tag}`, `${real}/branches`, `${real}/tags`, `${base}/branches`, `${base}/tags`], w.callers, [
        ["GET", `${base}/branches/${branch}`],
        ["DELETE", `${base}/branches/${branch}`],
        ["GET", `${base}/tags/${tag}`],
        ["DELETE", `${base}/tags/${tag}`],
      ]);
      // A commit of the foreign repository is no ref of mine to branch or tag from.
      const sha = ok(await root.get(`${real}/branches/${branch}`), 200, "branch").body.commit.id as string;
      for (const api of Object.values(w.callers)) {
        expect(await api.post(`${base}/branches`, { json: { branch: "planted", ref: sha } })).toMatchObject({ status: 400, body: { message: `Invalid reference name: ${sha}` } });
        expect(await api.post(`${base}/tags`, { json: { tag_name: "planted", ref: sha } })).toMatchObject({ status: 400, body: { message: `Target ${sha} is invalid` } });
      }
    }
    expect((await root.get(`${base}/branches/planted`)).status).toBe(404);
  });
});

// ---- protected branches and approvals -------------------------------------------------------------

describe("protected branches and approvals", () => {
  const mergeRequestIn = (api: ApiClient, projectId: number, branch: string) => createMergeRequest(api, projectId, branch);

  test("protected branch of another project → 404 through my project (GET, PATCH, DELETE)", async () => {
    const w = await world();
    const base = `${P(w.mine.project)}/protected_branches`;
    for (const f of w.foreign) {
      const name = `only-in-${f.visibility}`;
      ok(await root.post(`${P(f.project)}/protected_branches`, { json: { name } }), 201, "protect");
      await expectUntouched([`${P(f.project)}/protected_branches/${name}`, `${P(f.project)}/protected_branches`, base], w.callers, [
        ["GET", `${base}/${name}`],
        ["PATCH", `${base}/${name}`, { push_access_level: 0 }],
        ["DELETE", `${base}/${name}`],
      ]);
    }
  });

  test("approval rule of another project → 404 through my project (GET, PUT, DELETE); its protected branches are refused in my rules (400)", async () => {
    const w = await world();
    const base = `${P(w.mine.project)}/approval_rules`;
    for (const f of w.foreign) {
      const rule = ok(await root.post(`${P(f.project)}/approval_rules`, { json: { name: `foreign-${f.visibility}`, approvals_required: 1 } }), 201, "rule").body;
      await expectUntouched([`${P(f.project)}/approval_rules/${rule.id}`, `${P(f.project)}/approval_rules`, base], w.callers, [
        ["GET", `${base}/${rule.id}`],
        ["PUT", `${base}/${rule.id}`, { name: "hijacked", approvals_required: 0 }],
        ["DELETE", `${base}/${rule.id}`],
      ]);
      const foreignMain = ok(await root.get(`${P(f.project)}/protected_branches/main`), 200, "protected main").body;
      for (const api of Object.values(w.callers))
        expect((await api.post(base, { json: { name: "planted", approvals_required: 1, protected_branch_ids: [foreignMain.id] } })).status).toBe(400);
    }
    expect(ok(await root.get(base), 200, "my rules").body).toEqual([]);
  });

  test("merge request of another project → 404 through my project (approvals, approval_state, approve, unapprove, reset, rules); rule of another merge request → 404 through mine", async () => {
    const w = await world();
    const mine = await mergeRequestIn(w.alice.api, w.mine.project.id, "mine-1"); // iid 1: my project has no iid 2
    const mineRule = ok(await w.alice.api.post(`${P(w.mine.project)}/merge_requests/${mine.iid}/approval_rules`, { json: { name: "mine", approvals_required: 1 } }), 201, "my mr rule").body;
    for (const f of w.foreign) {
      await mergeRequestIn(w.bob.api, f.project.id, `${f.visibility}-1`);
      const second = await mergeRequestIn(w.bob.api, f.project.id, `${f.visibility}-2`); // root approves: not the author
      expect(second.iid).toBe(2);
      ok(await root.post(`${P(f.project)}/merge_requests/2/approve`), 201, "foreign approval");
      const foreignBase = `${P(f.project)}/merge_requests/2`;
      const rule = ok(await root.post(`${foreignBase}/approval_rules`, { json: { name: "foreign", approvals_required: 1 } }), 201, "foreign mr rule").body;
      const base = `${P(w.mine.project)}/merge_requests/2`;
      const myBase = `${P(w.mine.project)}/merge_requests/${mine.iid}`;
      await expectUntouched(
        [`${foreignBase}/approvals`, `${foreignBase}/approval_state`, `${foreignBase}/approval_rules`, `${foreignBase}/approval_rules/${rule.id}`, `${myBase}/approval_rules`],
        w.callers,
        [
          ["GET", `${base}/approvals`],
          ["GET", `${base}/approval_state`],
          ["POST", `${base}/approve`],
          ["POST", `${base}/unapprove`],
          ["PUT", `${base}/reset_approvals`],
          ["GET", `${base}/approval_rules`],
          ["POST", `${base}/approval_rules`, { name: "planted", approvals_required: 1 }],
          ["GET", `${base}/approval_rules/${rule.id}`],
          ["PUT", `${base}/approval_rules/${rule.id}`, { name: "hijacked" }],
          ["DELETE", `${base}/approval_rules/${rule.id}`],
          // The foreign rule through my own merge request.
          ["GET", `${myBase}/approval_rules/${rule.id}`],
          ["PUT", `${myBase}/approval_rules/${rule.id}`, { name: "hijacked" }],
          ["DELETE", `${myBase}/approval_rules/${rule.id}`],
        ],
      );
    }
    expect(ok(await w.alice.api.get(`${P(w.mine.project)}/merge_requests/${mine.iid}/approval_rules/${mineRule.id}`), 200, "my rule").body.name).toBe("mine");
  });
});

// ---- pipeline schedules ---------------------------------------------------------------------------

describe("webhooks", () => {
  test("project hook of another project (and group hook of another group) → 404 through mine (GET, PUT, DELETE, test, events, resend)", async () => {
    const w = await world();
    const url = "https://hooks.example.com/in";
    for (const [level, mineBase, foreignBase] of [
      ["project", `${P(w.mine.project)}/hooks`, (f: Parent) => `${P(f.project)}/hooks`],
      ["group", `${G(w.mine.group)}/hooks`, (f: Parent) => `${G(f.group)}/hooks`],
    ] as const) {
      for (const f of w.foreign) {
        const hook = ok(await root.post(foreignBase(f), { json: { url, name: `${level}-${f.visibility}` } }), 201, "hook").body as { id: number };
        await expectUntouched([`${foreignBase(f)}/${hook.id}`, foreignBase(f), mineBase], w.callers, [
          ["GET", `${mineBase}/${hook.id}`],
          ["PUT", `${mineBase}/${hook.id}`, { url: "https://hooks.example.com/moved" }],
          ["DELETE", `${mineBase}/${hook.id}`],
          ["POST", `${mineBase}/${hook.id}/test/push_events`],
          ["GET", `${mineBase}/${hook.id}/events`],
          ["POST", `${mineBase}/${hook.id}/events/1/resend`],
        ]);
      }
    }
  });
});

describe("pipeline schedules", () => {
  /** Yearly (1 January, 01:00): no scheduler run lands while a test compares a schedule. */
  const newSchedule = async (api: ApiClient, projectId: number, description: string) =>
    ok(await api.post(`/projects/${projectId}/pipeline_schedules`, { json: { description, ref: "main", cron: "0 1 1 1 *" } }), 201, `schedule ${description}`).body as { id: number };

  const addVariable = async (api: ApiClient, projectId: number, scheduleId: number, key: string, value: string) =>
    ok(await api.post(`/projects/${projectId}/pipeline_schedules/${scheduleId}/variables`, { json: { key, value } }), 201, `variable ${key}`);

  test("pipeline schedule of another project → 404 through my project (GET, PUT, DELETE, pipelines, take_ownership, play, variables)", async () => {
    const w = await world();
    await newSchedule(w.alice.api, w.mine.project.id, "mine");
    for (const f of w.foreign) {
      const s = await newSchedule(w.bob.api, f.project.id, `foreign-${f.visibility}`);
      await addVariable(w.bob.api, f.project.id, s.id, "DEPLOY_KEY", "secret");
      ok(await w.bob.api.post(`${P(f.project)}/pipeline_schedules/${s.id}/play`), 201, "play");
      const real = `${P(f.project)}/pipeline_schedules/${s.id}`;
      const via = `${P(w.mine.project)}/pipeline_schedules/${s.id}`;
      await expectUntouched([real, `${real}/pipelines`, `${P(f.project)}/pipeline_schedules`, `${P(w.mine.project)}/pipeline_schedules`], w.callers, [
        ["GET", via],
        ["PUT", via, { description: "hijacked", active: false }],
        ["GET", `${via}/pipelines`],
        ["POST", `${via}/take_ownership`],
        ["POST", `${via}/play`],
        ["POST", `${via}/variables`, { key: "PLANTED", value: "x" }],
        ["PUT", `${via}/variables/DEPLOY_KEY`, { value: "hijacked" }],
        ["DELETE", `${via}/variables/DEPLOY_KEY`],
        ["DELETE", via],
      ]);
    }
  });

  test("variable of another schedule → 404 through my schedule (PUT, DELETE)", async () => {
    const w = await world();
    const mine = await newSchedule(w.alice.api, w.mine.project.id, "mine");
    await addVariable(w.alice.api, w.mine.project.id, mine.id, "MINE", "mine");
    // Another schedule of my own project, and the foreign ones: same key, other parents.
    const sibling = await newSchedule(w.alice.api, w.mine.project.id, "sibling");
    await addVariable(w.alice.api, w.mine.project.id, sibling.id, "SHARED_KEY", "sibling");
    const real = [`${P(w.mine.project)}/pipeline_schedules/${sibling.id}`];
    for (const f of w.foreign) {
      const s = await newSchedule(w.bob.api, f.project.id, `foreign-${f.visibility}`);
      await addVariable(w.bob.api, f.project.id, s.id, "SHARED_KEY", `foreign-${f.visibility}`);
      real.push(`${P(f.project)}/pipeline_schedules/${s.id}`);
    }
    const via = `${P(w.mine.project)}/pipeline_schedules/${mine.id}/variables/SHARED_KEY`;
    await expectUntouched([...real, `${P(w.mine.project)}/pipeline_schedules/${mine.id}`], w.callers, [
      ["PUT", via, { value: "hijacked" }],
      ["DELETE", via],
    ]);
  });
});

// ---- runners ----------------------------------------------------------------------------------------

describe("runners", () => {
  test("runner of another project → 404 through my project (DELETE); not listed under my project or group, not enabled there", async () => {
    const w = await world();
    const [bravo, charlie] = w.foreign;
    // A project runner of two foreign projects, so that unassigning one of them would be allowed.
    const runner = ok(await w.bob.api.post("/user/runners", { json: { runner_type: "project_type", project_id: bravo.project.id, description: "foreign" } }), 201, "runner").body as { id: number };
    ok(await w.bob.api.post(`${P(charlie.project)}/runners`, { json: { runner_id: runner.id } }), 201, "enable on charlie");
    const groupRunner = ok(await w.bob.api.post("/user/runners", { json: { runner_type: "group_type", group_id: bravo.group.id } }), 201, "group runner").body as { id: number };
    const mine = ok(await w.alice.api.post("/user/runners", { json: { runner_type: "project_type", project_id: w.mine.project.id } }), 201, "my runner").body as { id: number };

    await expectUntouched([`/runners/${runner.id}`, `/runners/${groupRunner.id}`, `${P(bravo.project)}/runners`, `${P(charlie.project)}/runners`], w.callers, [
      ["DELETE", `${P(w.mine.project)}/runners/${runner.id}`],
      ["DELETE", `${P(w.mine.project)}/runners/${groupRunner.id}`],
    ]);
    expect(ok(await root.get(`/runners/${runner.id}`), 200, "runner").body.projects.map((p: { id: number }) => p.id).sort()).toEqual([bravo.project.id, charlie.project.id].sort());

    // Lists under my parents show mine only.
    const ids = (res: ApiResponse) => (res.body as { id: number }[]).map((r) => r.id);
    expect(ids(ok(await w.alice.api.get(`${P(w.mine.project)}/runners`), 200, "my project's runners"))).toEqual([mine.id]);
    expect(ids(ok(await w.alice.api.get(`${G(w.mine.group)}/runners`), 200, "my group's runners"))).toEqual([]);
    expect(ids(ok(await root.get(`${G(w.mine.group)}/runners`), 200, "my group's runners (root)"))).toEqual([]);

    // Enabling a foreign runner on my project: the runner is not alice's to give (403, as GitLab).
    expect(await w.alice.api.post(`${P(w.mine.project)}/runners`, { json: { runner_id: runner.id } })).toMatchObject({ status: 403, body: { message: "403 Forbidden - No access granted" } });
    expect(ids(ok(await w.alice.api.get(`${P(w.mine.project)}/runners`), 200, "my project's runners"))).toEqual([mine.id]);
  });
});

// ---- protected environments -----------------------------------------------------------------------

describe("group protected environments", () => {
  const protect = async (api: ApiClient, groupId: number, name: string) =>
    ok(await api.post(`/groups/${groupId}/protected_environments`, { json: { name, deploy_access_levels: [{ access_level: 40 }] } }), 201, `protect ${name}`).body as {
      deploy_access_levels: { id: number }[];
    };

  test("protected environment of another group → 404 through my group (GET, PUT, DELETE)", async () => {
    const w = await world();
    await protect(w.alice.api, w.mine.group.id, "staging");
    for (const f of w.foreign) {
      await protect(w.bob.api, f.group.id, "production");
      const via = `${G(w.mine.group)}/protected_environments/production`;
      await expectUntouched(
        [`${G(f.group)}/protected_environments/production`, `${G(f.group)}/protected_environments`, `${G(w.mine.group)}/protected_environments`],
        w.callers,
        [
          ["GET", via],
          ["PUT", via, { deploy_access_levels: [{ access_level: 30 }], required_approval_count: 2 }],
          ["DELETE", via],
        ],
      );
    }
  });

  test("deploy access level of another environment → 404 through my environment (PUT with its id)", async () => {
    const w = await world();
    await protect(w.alice.api, w.mine.group.id, "production");
    const staging = await protect(w.alice.api, w.mine.group.id, "staging"); // a sibling environment of mine
    const entryIds = [staging.deploy_access_levels[0].id];
    const real = [`${G(w.mine.group)}/protected_environments/staging`];
    for (const f of w.foreign) {
      entryIds.push((await protect(w.bob.api, f.group.id, "production")).deploy_access_levels[0].id);
      real.push(`${G(f.group)}/protected_environments/production`);
    }
    const via = `${G(w.mine.group)}/protected_environments/production`;
    await expectUntouched(
      [...real, via],
      w.callers,
      entryIds.flatMap((id): Attempt[] => [
        ["PUT", via, { deploy_access_levels: [{ id, access_level: 30 }] }],
        ["PUT", via, { deploy_access_levels: [{ id, _destroy: true }] }],
        ["PUT", via, { approval_rules: [{ id, required_approvals: 3 }] }],
      ]),
    );
  });
});

// ---- group service accounts ------------------------------------------------------------------------

describe("group service accounts", () => {
  const newAccount = async (api: ApiClient, groupId: number, name: string) =>
    ok(await api.post(`/groups/${groupId}/service_accounts`, { json: { name } }), 201, `service account ${name}`).body as { id: number };
  const mint = async (api: ApiClient, groupId: number, userId: number) =>
    ok(await api.post(`/groups/${groupId}/service_accounts/${userId}/personal_access_tokens`, { json: { name: "ci", scopes: ["api"] } }), 201, "token").body as { id: number; token: string };

  test("service account of another group → 404 through my group (PATCH, DELETE, tokens: list, create, rotate, revoke)", async () => {
    const w = await world();
    await newAccount(w.alice.api, w.mine.group.id, "mine");
    for (const f of w.foreign) {
      const sa = await newAccount(w.bob.api, f.group.id, `foreign-${f.visibility}`);
      const token = await mint(w.bob.api, f.group.id, sa.id);
      const via = `${G(w.mine.group)}/service_accounts/${sa.id}`;
      await expectUntouched(
        [`/users/${sa.id}`, `${G(f.group)}/service_accounts`, `${G(f.group)}/service_accounts/${sa.id}/personal_access_tokens`, `/personal_access_tokens/${token.id}`, `${G(w.mine.group)}/service_accounts`],
        w.callers,
        [
          ["PATCH", via, { name: "hijacked" }],
          ["GET", `${via}/personal_access_tokens`],
          ["POST", `${via}/personal_access_tokens`, { name: "planted", scopes: ["api"] }],
          ["POST", `${via}/personal_access_tokens/${token.id}/rotate`],
          ["DELETE", `${via}/personal_access_tokens/${token.id}`],
          ["DELETE", via],
        ],
      );
      // The token still works.
      expect((await apiClient(app.url, token.token).get("/personal_access_tokens/self")).status).toBe(200);
    }
  });

  test("token of another service account (or user) → 404 through my service account (rotate, revoke)", async () => {
    const w = await world();
    const mine = await newAccount(w.alice.api, w.mine.group.id, "mine");
    await mint(w.alice.api, w.mine.group.id, mine.id);
    // Another account of my group, an account of each foreign group, and alice's own token.
    const sibling = await newAccount(w.alice.api, w.mine.group.id, "sibling");
    const tokens = [await mint(w.alice.api, w.mine.group.id, sibling.id)];
    for (const f of w.foreign) tokens.push(await mint(w.bob.api, f.group.id, await newAccount(w.bob.api, f.group.id, `foreign-${f.visibility}`).then((a) => a.id)));
    const alicesOwn = ok(await w.alice.api.get("/personal_access_tokens/self"), 200, "alice's token").body as { id: number };
    const ids = [...tokens.map((t) => t.id), alicesOwn.id];
    const via = `${G(w.mine.group)}/service_accounts/${mine.id}/personal_access_tokens`;
    // alice's own token is in use by the attempts (its last_used_at moves): checked apart below.
    await expectUntouched(
      [...tokens.map((t) => `/personal_access_tokens/${t.id}`), via],
      w.callers,
      ids.flatMap((id): Attempt[] => [
        ["POST", `${via}/${id}/rotate`],
        ["DELETE", `${via}/${id}`],
      ]),
    );
    for (const t of tokens) expect((await apiClient(app.url, t.token).get("/personal_access_tokens/self")).status).toBe(200);
    expect(ok(await root.get(`/personal_access_tokens/${alicesOwn.id}`), 200, "alice's token").body).toMatchObject({ active: true, revoked: false, user_id: w.alice.id });
  });
});

// ---- personal access tokens (the caller is the parent) --------------------------------------------

describe("personal access tokens", () => {
  test("another user's token → 404 through /personal_access_tokens/:id (GET); revoking it is refused and it stays active", async () => {
    const w = await world();
    const bobs = ok(await w.bob.api.get("/personal_access_tokens/self"), 200, "bob's token").body as { id: number };
    await expectUntouched([`/personal_access_tokens/${bobs.id}`], { alice: w.alice.api }, [["GET", `/personal_access_tokens/${bobs.id}`]]);
    // GitLab's RevokeService answers somebody else's token with 400, not 404.
    expect(await w.alice.api.delete(`/personal_access_tokens/${bobs.id}`)).toMatchObject({ status: 400, body: { message: "400 Bad request - Not permitted to revoke" } });
    expect(ok(await root.get(`/personal_access_tokens/${bobs.id}`), 200, "bob's token").body).toMatchObject({ active: true, revoked: false });
    expect((await w.bob.api.get("/user")).status).toBe(200);
  });
});

// ---- repository storage moves (administrators) -----------------------------------------------------

describe("repository storage moves", () => {
  test("storage move of another project or group → 404 through mine (GET; and across container types)", async () => {
    const w = await world();
    ok(await root.put("/application/settings", { json: { repository_storages_weighted: { default: 100, ssd: 0 } } }), 200, "storages");
    const [bravo] = w.foreign;
    // Another admin replica learns the new storage from a broadcast (distributed pass): retry until it knows "ssd".
    const move = (path: string) => eventually(async () => ok(await root.post(`${path}/repository_storage_moves`, { json: { destination_storage_name: "ssd" } }), 201, `move of ${path}`).body as { id: number });
    const projectMove = await move(P(bravo.project));
    const groupMove = await move(G(bravo.group));
    // The worker may advance the moves meanwhile (distributed pass): compare what never changes.
    const stable = async () => {
      const p = ok(await root.get(`${P(bravo.project)}/repository_storage_moves/${projectMove.id}`), 200, "project move").body;
      const g = ok(await root.get(`${G(bravo.group)}/repository_storage_moves/${groupMove.id}`), 200, "group move").body;
      return [p.id, p.project.id, p.destination_storage_name, g.id, g.group.id, g.destination_storage_name];
    };
    const before = await stable();
    await expectAll404({ root }, [
      ["GET", `${P(w.mine.project)}/repository_storage_moves/${projectMove.id}`],
      ["GET", `${G(w.mine.group)}/repository_storage_moves/${groupMove.id}`],
      // A project's move is no group's, and the other way round.
      ["GET", `${G(bravo.group)}/repository_storage_moves/${projectMove.id}`],
      ["GET", `${P(bravo.project)}/repository_storage_moves/${groupMove.id}`],
      ["GET", `/group_repository_storage_moves/${projectMove.id}`],
      ["GET", `/project_repository_storage_moves/${groupMove.id}`],
      ["GET", `/snippet_repository_storage_moves/${projectMove.id}`],
      ["GET", `/snippets/${bravo.project.id}/repository_storage_moves/${projectMove.id}`],
    ]);
    expect((ok(await root.get(`${P(w.mine.project)}/repository_storage_moves`), 200, "my moves").body as unknown[]).length).toBe(0);
    expect(await stable()).toEqual(before);
  });
});

describe("error tracking", () => {
  test("client key of another project → 404 through my project (DELETE); not listed under mine", async () => {
    const w = await world();
    const base = `${P(w.mine.project)}/error_tracking/client_keys`;
    for (const f of w.foreign) {
      const key = ok(await root.post(`${P(f.project)}/error_tracking/client_keys`), 201, "key").body as { id: number };
      await expectUntouched([`${P(f.project)}/error_tracking/client_keys`, base], w.callers, [["DELETE", `${base}/${key.id}`]]);
    }
    expect((ok(await root.get(base), 200, "my keys").body as unknown[]).length).toBe(0);
  });
});

// ---- group export downloads -----------------------------------------------------------------------

describe("group export", () => {
  const tick = () => call(app.broker, ImportExport.worker.tick, {});

  /** Ticks the worker until `api` can download the group's export (another replica's timer may hold the job meanwhile). */
  async function exported(api: ApiClient, groupId: number) {
    expect(await api.post(`/groups/${groupId}/export`)).toMatchObject({ status: 202 });
    for (let i = 0; i < 50; i++) {
      if ((await api.get(`/groups/${groupId}/export/download`)).status === 200) return;
      await tick();
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the export of group ${groupId} never finished`);
  }

  test("export of another group → 404 through my group's download", async () => {
    const w = await world();
    const [bravo] = w.foreign;
    // alice exports another group of hers, bob and root export bravo; nobody exported alpha.
    const delta = await createGroup(w.alice.api, "delta", "delta");
    await exported(w.alice.api, delta.id);
    await exported(w.bob.api, bravo.group.id);
    await exported(root, bravo.group.id);
    await expectAll404(w.callers, [["GET", `${G(w.mine.group)}/export/download`]]);
    for (const [api, group] of [
      [w.alice.api, delta.id],
      [w.bob.api, bravo.group.id],
      [root, bravo.group.id],
    ] as const)
      expect((await api.get(`/groups/${group}/export/download`)).status).toBe(200);
  });
});
