/**
 * The fuzz test's fixture world, made once through the API as root (and made again after a request
 * that was allowed to change it broke it): principals, a public and a private "space" (group,
 * project and everything nested in them), and the instance-level resources the route table names.
 * `pathValue` maps a path parameter to a valid value by its name and the path around it.
 */
import { apiClient, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";
import { createMergeRequest } from "@collab/standalone/test/merge-requests";

export interface Principal {
  id: number;
  username: string;
  token: string;
}

export interface Space {
  group: { id: number; full_path: string };
  project: { id: number; path_with_namespace: string };
  issue: { id: number; iid: number };
  /** A link of `issue` to another issue of the project (0: none made). */
  issueLink: { id: number };
  mergeRequest: { id: number; iid: number };
  note: { id: number };
  discussion: { id: string; noteId: number };
  stateEvent: { id: number };
  projectLabel: { id: number; name: string };
  groupLabel: { id: number; name: string };
  projectMilestone: { id: number };
  groupMilestone: { id: number };
  branch: string;
  tag: string;
  schedule: { id: number; variableKey: string };
  environment: string;
  runner: { id: number };
  /** Project and group access tokens and deploy tokens (id 0 when the endpoint refused to make one). */
  projectAccessToken: { id: number };
  groupAccessToken: { id: number };
  projectDeployToken: { id: number };
  groupDeployToken: { id: number };
  /** A merge request from `branch` into main, with a merge-request approval rule. */
  mergeRequest: { iid: number };
  approvalRule: { id: number };
  mergeRequestApprovalRule: { id: number };
  /** The default branch, protected by default. */
  protectedBranch: string;
  /** The group's epic (id 0 when the tier has none) with a comment, a thread and a state event; epic notes routes name it by id. */
  epic: { id: number; iid: number };
  epicNote: { id: number };
  epicDiscussion: { id: string; noteId: number };
  epicStateEvent: { id: number };
  /** The association of `issue` with the epic (id 0 when epics are refused). */
  epicIssue: { id: number };
}

export interface World {
  /** Bumped by every rebuild, so ids cached by a caller can be told stale. */
  generation: number;
  root: Principal;
  /** Developer of both groups (so of both projects): the "member" principal. */
  member: Principal;
  /** A user with no membership anywhere: the "outsider" principal. */
  outsider: Principal;
  /** Reporter of both groups: the `:user_id` of member routes and the user_id of member adds. */
  bystander: Principal;
  pub: Space;
  priv: Space;
  /** A spare personal access token of the member (not the one the member's requests use). */
  pat: { id: number };
  groupServiceAccount: { id: number; tokenId: number };
  instanceServiceAccount: { id: number };
  broadcast: { id: number };
  storageMoves: { project: number; group: number; projectId: number; groupId: number };
  /** Authentication token of a runner outside the world checks, for /runners' `token` params. */
  spareRunnerToken: string;
}

function ok<T extends ApiResponse>(res: T, status: number | number[], what: string): T {
  const want = Array.isArray(status) ? status : [status];
  if (!want.includes(res.status)) throw new Error(`fuzz world: ${what}: expected ${want.join("/")}, got ${res.status} ${res.text.slice(0, 500)}`);
  return res;
}

async function makeUser(root: ApiClient, username: string): Promise<Principal> {
  const u = ok(
    await root.post("/users", { json: { username, name: username, email: `${username}@example.com`, password: "s3cret-passw0rd", skip_confirmation: true } }),
    201,
    `user ${username}`,
  ).body;
  const t = ok(await root.post(`/users/${u.id}/personal_access_tokens`, { json: { name: "fuzz", scopes: ["api"] } }), 201, `token of ${username}`).body;
  return { id: u.id, username, token: t.token };
}

type WorldApp = Pick<TestApp, "url" | "rootToken"> & Partial<Pick<TestApp, "database">>;

/** A merge request and approval rules on it and its project (ids 0 when they cannot be made). */
async function makeApprovals(root: ApiClient, projectId: number, branch: string) {
  const none = { mergeRequest: { iid: 0 }, approvalRule: { id: 0 }, mergeRequestApprovalRule: { id: 0 } };
  let mr;
  try {
    mr = await createMergeRequest(root, projectId, { title: "fuzz merge request", source_branch: branch, target_branch: "main" });
  } catch {
    return none;
  }
  const rule = await root.post(`/projects/${projectId}/approval_rules`, { json: { name: "fuzz rule", approvals_required: 1 } });
  const mrRule = await root.post(`/projects/${projectId}/merge_requests/${mr.iid}/approval_rules`, { json: { name: "fuzz mr rule", approvals_required: 1 } });
  return {
    mergeRequest: { iid: mr.iid },
    approvalRule: { id: rule.status === 201 ? (rule.body.id as number) : 0 },
    mergeRequestApprovalRule: { id: mrRule.status === 201 ? (mrRule.body.id as number) : 0 },
  };
}

async function makeSpace(app: WorldApp, root: ApiClient, tag: "pub" | "priv", w: { member: Principal; bystander: Principal }): Promise<Space> {
  const visibility = tag === "pub" ? "public" : "private";
  const group = ok(await root.post("/groups", { json: { name: `fuzz-${tag}`, path: `fuzz-${tag}`, visibility } }), 201, `${tag} group`).body;
  ok(await root.post(`/groups/${group.id}/members`, { json: { user_id: w.member.id, access_level: 30 } }), 201, "member");
  ok(await root.post(`/groups/${group.id}/members`, { json: { user_id: w.bystander.id, access_level: 20 } }), 201, "bystander");
  const project = ok(
    await root.post("/projects", { json: { name: `app-${tag}`, path: `app-${tag}`, namespace_id: group.id, visibility, initialize_with_readme: true } }),
    201,
    `${tag} project`,
  ).body;
  const P = `/projects/${project.id}`;
  const issue = ok(await root.post(`${P}/issues`, { json: { title: `fuzz issue ${tag}`, description: "d" } }), 201, "issue").body;
  const I = `${P}/issues/${issue.iid}`;
  const note = ok(await root.post(`${I}/notes`, { json: { body: "a note" } }), 201, "note").body;
  const discussion = ok(await root.post(`${I}/discussions`, { json: { body: "a thread" } }), 201, "discussion").body;
  ok(await root.put(I, { json: { state_event: "close" } }), 200, "close issue");
  ok(await root.put(I, { json: { state_event: "reopen" } }), 200, "reopen issue");
  const events = ok(await root.get(`${I}/resource_state_events`), 200, "state events").body;
  const projectLabel = ok(await root.post(`${P}/labels`, { json: { name: `plabel-${tag}`, color: "#FF0000" } }), 201, "project label").body;
  const groupLabel = ok(await root.post(`/groups/${group.id}/labels`, { json: { name: `glabel-${tag}`, color: "#00FF00" } }), 201, "group label").body;
  const projectMilestone = ok(await root.post(`${P}/milestones`, { json: { title: `pm-${tag}` } }), 201, "project milestone").body;
  const groupMilestone = ok(await root.post(`/groups/${group.id}/milestones`, { json: { title: `gm-${tag}` } }), 201, "group milestone").body;
  ok(await root.post(`${P}/repository/branches`, { json: { branch: "feature", ref: "main" } }), 201, "branch");
  ok(await root.post(`${P}/repository/tags`, { json: { tag_name: "v1.0", ref: "main" } }), 201, "tag");
  const mergeRequest = ok(await root.post(`${P}/merge_requests`, { json: { title: `fuzz mr ${tag}`, source_branch: "feature", target_branch: "main", description: "d" } }), 201, "merge request").body;
  const schedule = ok(await root.post(`${P}/pipeline_schedules`, { json: { description: "nightly", ref: "main", cron: "0 1 * * *" } }), 201, "schedule").body;
  ok(await root.post(`${P}/pipeline_schedules/${schedule.id}/variables`, { json: { key: "FUZZ_VAR", value: "v" } }), 201, "schedule variable");
  ok(
    await root.post(`/groups/${group.id}/protected_environments`, { json: { name: "staging", deploy_access_levels: [{ access_level: 40 }] } }),
    201,
    "protected environment",
  );
  const runner = ok(await root.post("/user/runners", { json: { runner_type: "project_type", project_id: project.id } }), 201, "runner").body;
  // Optional fixtures: newer endpoints, so a change of theirs degrades to id 0 (a 404 path) instead of no world.
  const optional = async (path: string, json: Record<string, unknown>) => {
    const res = await root.post(path, { json });
    return { id: res.status === 201 && typeof res.body?.id === "number" ? (res.body.id as number) : 0 };
  };
  const projectAccessToken = await optional(`${P}/access_tokens`, { name: "fuzz-bot", scopes: ["api"] });
  const groupAccessToken = await optional(`/groups/${group.id}/access_tokens`, { name: "fuzz-bot", scopes: ["api"] });
  const projectDeployToken = await optional(`${P}/deploy_tokens`, { name: "fuzz-pull", scopes: ["read_repository"] });
  const groupDeployToken = await optional(`/groups/${group.id}/deploy_tokens`, { name: "fuzz-pull", scopes: ["read_repository"] });
  const approvals = await makeApprovals(root, project.id, "feature");
  const epics = await makeEpic(root, group.id, tag);
  const epicIssue = epics.epic.id ? await optional(`/groups/${group.id}/epics/${epics.epic.iid}/issues/${issue.id}`, {}) : { id: 0 };
  const linkedIssue = ok(await root.post(`${P}/issues`, { json: { title: `fuzz linked issue ${tag}` } }), 201, "linked issue").body;
  await root.post(`${I}/links`, { json: { target_project_id: project.id, target_issue_iid: linkedIssue.iid } });
  const issueLink = { id: ((await root.get(`${I}/links`)).body?.[0]?.issue_link_id as number | undefined) ?? 0 };
  return {
    issueLink,
    epicIssue,
    group: { id: group.id, full_path: group.full_path },
    project: { id: project.id, path_with_namespace: project.path_with_namespace },
    issue: { id: issue.id, iid: issue.iid },
    mergeRequest: { id: mergeRequest.id, iid: mergeRequest.iid },
    note: { id: note.id },
    discussion: { id: discussion.id, noteId: discussion.notes[0].id },
    stateEvent: { id: events[0].id },
    projectLabel: { id: projectLabel.id, name: projectLabel.name },
    groupLabel: { id: groupLabel.id, name: groupLabel.name },
    projectMilestone: { id: projectMilestone.id },
    groupMilestone: { id: groupMilestone.id },
    branch: "feature",
    tag: "v1.0",
    schedule: { id: schedule.id, variableKey: "FUZZ_VAR" },
    environment: "staging",
    runner: { id: runner.id },
    projectAccessToken,
    groupAccessToken,
    projectDeployToken,
    groupDeployToken,
    ...approvals,
    protectedBranch: "main",
    ...epics,
  };
}

/** An epic with its conversation; on a tier without epics (their routes 404) every id is 0. */
async function makeEpic(root: ApiClient, groupId: number, tag: string): Promise<Pick<Space, "epic" | "epicNote" | "epicDiscussion" | "epicStateEvent">> {
  const created = await root.post(`/groups/${groupId}/epics`, { json: { title: `fuzz epic ${tag}`, description: "d" } });
  if (created.status !== 201) return { epic: { id: 0, iid: 0 }, epicNote: { id: 0 }, epicDiscussion: { id: "0", noteId: 0 }, epicStateEvent: { id: 0 } };
  const E = `/groups/${groupId}/epics/${created.body.id}`;
  const note = ok(await root.post(`${E}/notes`, { json: { body: "an epic note" } }), 201, "epic note").body;
  const discussion = ok(await root.post(`${E}/discussions`, { json: { body: "an epic thread" } }), 201, "epic discussion").body;
  ok(await root.put(`/groups/${groupId}/epics/${created.body.iid}`, { json: { state_event: "close" } }), 200, "close epic");
  ok(await root.put(`/groups/${groupId}/epics/${created.body.iid}`, { json: { state_event: "reopen" } }), 200, "reopen epic");
  const events = ok(await root.get(`${E}/resource_state_events`), 200, "epic state events").body;
  return {
    epic: { id: created.body.id, iid: created.body.iid },
    epicNote: { id: note.id },
    epicDiscussion: { id: discussion.id, noteId: discussion.notes[0].id },
    epicStateEvent: { id: events[0].id },
  };
}

/**
 * One fixture the world needs: read by root (or with a principal's token) it must answer 200.
 * `repair` makes it again in place (a new id is written into the world); without one a broken
 * fixture means rebuilding the whole world.
 */
export interface Check {
  path: string;
  /** Read with this token instead of root's (a principal's token must still work). */
  token?: string;
  repair?: (root: ApiClient) => Promise<void>;
}

let serial = 0;

export function worldChecks(w: World): Check[] {
  const out: Check[] = [
    { path: `/users/${w.member.id}` },
    { path: `/users/${w.outsider.id}` },
    { path: `/users/${w.bystander.id}` },
    {
      path: `/personal_access_tokens/${w.pat.id}`,
      repair: async (root) => {
        w.pat.id = ok(await root.post(`/users/${w.member.id}/personal_access_tokens`, { json: { name: "spare", scopes: ["read_api"] } }), 201, "spare pat").body.id;
      },
    },
    ...([w.member, w.outsider] as const).map((u) => ({
      path: "/user",
      token: u.token,
      repair: async (root: ApiClient) => {
        u.token = ok(await root.post(`/users/${u.id}/personal_access_tokens`, { json: { name: "fuzz", scopes: ["api"] } }), 201, `token of ${u.username}`).body.token;
      },
    })),
  ];
  for (const s of [w.pub, w.priv]) {
    const P = `/projects/${s.project.id}`;
    const G = `/groups/${s.group.id}`;
    const I = `${P}/issues/${s.issue.iid}`;
    const rejoin = (u: Principal, level: number) => async (root: ApiClient) => {
      ok(await root.post(`${G}/members`, { json: { user_id: u.id, access_level: level } }), [201, 409], `rejoin ${u.username}`);
      ok(await root.put(`${G}/members/${u.id}`, { json: { access_level: level } }), 200, `level of ${u.username}`);
    };
    out.push(
      { path: G },
      { path: P },
      { path: `${G}/members/${w.member.id}`, repair: rejoin(w.member, 30) },
      { path: `${G}/members/${w.bystander.id}`, repair: rejoin(w.bystander, 20) },
      { path: I },
      { path: `${I}/notes/${s.note.id}` },
      { path: `${I}/discussions/${s.discussion.id}/notes/${s.discussion.noteId}` },
      {
        path: `${P}/labels/${s.projectLabel.id}`,
        repair: async (root) => {
          s.projectLabel.id = ok(await root.post(`${P}/labels`, { json: { name: s.projectLabel.name, color: "#FF0000" } }), 201, "project label").body.id;
        },
      },
      {
        path: `${G}/labels/${s.groupLabel.id}`,
        repair: async (root) => {
          s.groupLabel.id = ok(await root.post(`${G}/labels`, { json: { name: s.groupLabel.name, color: "#00FF00" } }), 201, "group label").body.id;
        },
      },
      {
        path: `${P}/milestones/${s.projectMilestone.id}`,
        repair: async (root) => {
          s.projectMilestone.id = ok(await root.post(`${P}/milestones`, { json: { title: `pm-again-${++serial}` } }), 201, "project milestone").body.id;
        },
      },
      {
        path: `${G}/milestones/${s.groupMilestone.id}`,
        repair: async (root) => {
          s.groupMilestone.id = ok(await root.post(`${G}/milestones`, { json: { title: `gm-again-${++serial}` } }), 201, "group milestone").body.id;
        },
      },
      {
        path: `${P}/repository/branches/${s.branch}`,
        repair: async (root) => void ok(await root.post(`${P}/repository/branches`, { json: { branch: s.branch, ref: "main" } }), 201, "branch"),
      },
      {
        path: `${P}/merge_requests/${s.mergeRequest.iid}`,
        repair: async (root) => {
          const mr = ok(await root.post(`${P}/merge_requests`, { json: { title: `fuzz mr again ${++serial}`, source_branch: s.branch, target_branch: "main" } }), 201, "merge request").body;
          s.mergeRequest = { id: mr.id, iid: mr.iid };
        },
      },
      {
        path: `${P}/repository/tags/${s.tag}`,
        repair: async (root) => void ok(await root.post(`${P}/repository/tags`, { json: { tag_name: s.tag, ref: "main" } }), 201, "tag"),
      },
      { path: `${P}/pipeline_schedules/${s.schedule.id}` },
      { path: `${G}/protected_environments/${s.environment}` },
      { path: `/runners/${s.runner.id}` },
      { path: `${P}/protected_branches/${s.protectedBranch}`, repair: async (root) => void ok(await root.post(`${P}/protected_branches`, { json: { name: s.protectedBranch } }), 201, "protect") },
    );
    if (s.approvalRule.id) out.push({ path: `${P}/approval_rules/${s.approvalRule.id}` });
    if (s.epic.id) {
      const E = `${G}/epics/${s.epic.id}`;
      out.push({ path: `${G}/epics/${s.epic.iid}` }, { path: `${E}/notes/${s.epicNote.id}` }, { path: `${E}/discussions/${s.epicDiscussion.id}/notes/${s.epicDiscussion.noteId}` });
    }
    if (s.mergeRequestApprovalRule.id) {
      const base = `${P}/merge_requests/${s.mergeRequest.iid}/approval_rules`;
      out.push({
        path: `${base}/${s.mergeRequestApprovalRule.id}`,
        repair: async (root) => {
          await root.post(`${P}/approvals`, { json: { disable_overriding_approvers_per_merge_request: false } });
          s.mergeRequestApprovalRule.id = ok(await root.post(base, { json: { name: `fuzz mr rule ${++serial}`, approvals_required: 1 } }), 201, "mr rule").body.id;
        },
      });
    }
  }
  out.push({ path: `/broadcast_messages/${w.broadcast.id}` }, { path: `/groups/${w.pub.group.id}/service_accounts/${w.groupServiceAccount.id}/personal_access_tokens` });
  return out;
}

let generation = 0;

/**
 * Builds the world on an empty database (call app.reset() first). `workerRuns` says whether a
 * storage-move worker runs (STORAGE_MOVE_TICK_MS is not 0 where the admin service runs).
 */
export async function buildWorld(app: WorldApp, workerRuns: () => Promise<boolean> | boolean = () => false): Promise<World> {
  const root = apiClient(app.url, app.rootToken);
  const me = ok(await root.get("/user"), 200, "root").body;
  const member = await makeUser(root, "fuzz-member");
  const outsider = await makeUser(root, "fuzz-outsider");
  const bystander = await makeUser(root, "fuzz-bystander");
  const pub = await makeSpace(app, root, "pub", { member, bystander });
  const priv = await makeSpace(app, root, "priv", { member, bystander });
  const pat = ok(await root.post(`/users/${member.id}/personal_access_tokens`, { json: { name: "spare", scopes: ["read_api"] } }), 201, "spare pat").body;
  const gsa = ok(await root.post(`/groups/${pub.group.id}/service_accounts`, { json: { name: "fuzz-bot", username: "fuzz-bot" } }), 201, "group service account").body;
  const gsaToken = ok(
    await root.post(`/groups/${pub.group.id}/service_accounts/${gsa.id}/personal_access_tokens`, { json: { name: "bot", scopes: ["api"] } }),
    201,
    "service account token",
  ).body;
  const isa = ok(await root.post("/service_accounts", { json: { name: "fuzz-robot", username: "fuzz-robot", email: "fuzz-robot@example.com" } }), 201, "service account").body;
  const broadcast = ok(await root.post("/broadcast_messages", { json: { message: "fuzz broadcast" } }), 201, "broadcast").body;
  // Storage moves make their container read-only until the worker finishes them: use containers of their own.
  const moverGroup = ok(await root.post("/groups", { json: { name: "fuzz-mover", path: "fuzz-mover" } }), 201, "mover group").body;
  const moverProject = ok(await root.post("/projects", { json: { name: "mover", namespace_id: moverGroup.id } }), 201, "mover project").body;
  const pm = await root.post(`/projects/${moverProject.id}/repository_storage_moves`, { json: {} });
  const gm = await root.post(`/groups/${moverGroup.id}/repository_storage_moves`, { json: {} });
  // Where the storage-move worker runs (the distributed pass), let it finish the moves now, so it
  // changes no row later, between two fingerprints.
  for (const [kind, res] of [["project", pm], ["group", gm]] as const) {
    if (res.status !== 201) continue;
    for (let i = 0; i < 100; i++) {
      const state = (await root.get(`/${kind}_repository_storage_moves/${res.body.id}`)).body?.state;
      if (state === "finished" || state === "failed" || !(await workerRuns())) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const spare = ok(await root.post("/user/runners", { json: { runner_type: "project_type", project_id: moverProject.id } }), 201, "spare runner").body;
  generation += 1;
  return {
    generation,
    root: { id: me.id, username: me.username, token: app.rootToken },
    member,
    outsider,
    bystander,
    pub,
    priv,
    pat: { id: pat.id },
    groupServiceAccount: { id: gsa.id, tokenId: gsaToken.id },
    instanceServiceAccount: { id: isa.id },
    broadcast: { id: broadcast.id },
    storageMoves: {
      project: pm.status === 201 ? pm.body.id : 1,
      group: gm.status === 201 ? gm.body.id : 1,
      projectId: moverProject.id,
      groupId: moverGroup.id,
    },
    spareRunnerToken: spare.token,
  };
}

/** The checks that fail now: all of them, or those `focus` keeps (principals' tokens always). */
export async function brokenChecks(app: Pick<TestApp, "url" | "rootToken">, w: World, focus?: (path: string, index: number) => boolean): Promise<{ check: Check; index: number }[]> {
  const root = apiClient(app.url, app.rootToken);
  const checks = worldChecks(w)
    .map((check, index) => ({ check, index }))
    .filter(({ check, index }) => !focus || check.token || focus(check.path, index));
  const statuses = await Promise.all(checks.map(async ({ check: c }) => (await root.get(c.path, c.token ? { token: c.token } : {})).status));
  return checks.filter((_, i) => statuses[i] !== 200);
}

/**
 * Makes the broken fixtures again when each has a repair; answers false when the world must be
 * rebuilt instead (a fixture without a repair, or a repair that did not take).
 */
export async function repairWorld(app: Pick<TestApp, "url" | "rootToken">, w: World, broken: { check: Check; index: number }[]): Promise<boolean> {
  if (broken.some(({ check }) => !check.repair)) return false;
  const root = apiClient(app.url, app.rootToken);
  try {
    for (const { check } of broken) await check.repair!(root);
  } catch {
    return false;
  }
  const again = new Set(broken.map((b) => b.index));
  return (await brokenChecks(app, w, (_, i) => again.has(i))).length === 0;
}

/**
 * A valid value for the path parameter `name` of `path`, in the given space: by name and by the
 * segment before it (`/projects/:id` → the project, `/groups/:id` → the group, `:note_id` under a
 * discussion → that discussion's note…). Unknown names get "1".
 */
export function pathValue(w: World, space: Space, path: string, name: string): string {
  const before = path.slice(0, path.indexOf(`:${name}`));
  const lastSeg = before.split("/").filter(Boolean).pop() ?? "";
  const under = (seg: string) => before.includes(`/${seg}/`);
  const inGroup = path.startsWith("/groups/");
  switch (name) {
    case "id":
      if (lastSeg === "projects") return String(path.includes("repository_storage_moves") ? w.storageMoves.projectId : space.project.id);
      if (lastSeg === "groups") return String(path.includes("repository_storage_moves") ? w.storageMoves.groupId : space.group.id);
      if (lastSeg === "users") return String(w.member.id);
      if (lastSeg === "issues") return String(space.issue.id);
      if (lastSeg === "runners") return String(space.runner.id);
      if (lastSeg === "personal_access_tokens") return String(w.pat.id);
      if (lastSeg === "broadcast_messages") return String(w.broadcast.id);
      if (lastSeg === "snippets") return "1";
      return "1";
    case "user_id":
      if (under("service_accounts") || lastSeg === "service_accounts")
        return String(path.startsWith("/groups/") ? w.groupServiceAccount.id : w.instanceServiceAccount.id);
      if (lastSeg === "members" || lastSeg === "all") return String(w.bystander.id);
      return String(w.member.id);
    case "token_id":
      if (lastSeg === "access_tokens") return String(inGroup ? space.groupAccessToken.id : space.projectAccessToken.id);
      if (lastSeg === "deploy_tokens") return String(inGroup ? space.groupDeployToken.id : space.projectDeployToken.id);
      return String(w.groupServiceAccount.tokenId);
    case "issue_iid":
      return String(space.issue.iid);
    case "epic_iid":
      return String(space.epic.iid);
    case "epic_id":
      return String(space.epic.id);
    case "issue_id":
      return String(space.issue.id);
    case "epic_issue_id":
      return String(space.epicIssue.id);
    case "issue_link_id":
      return String(space.issueLink.id);
    case "merge_request_iid":
      return String(space.mergeRequest.iid);
    case "note_id":
      if (under("epics")) return String(under("discussions") ? space.epicDiscussion.noteId : space.epicNote.id);
      return String(under("discussions") ? space.discussion.noteId : space.note.id);
    case "discussion_id":
      return under("epics") ? space.epicDiscussion.id : space.discussion.id;
    case "resource_state_event_id":
      return String(under("epics") ? space.epicStateEvent.id : space.stateEvent.id);
    case "label_id":
      return String(inGroup ? space.groupLabel.id : space.projectLabel.id);
    case "milestone_id":
      return String(inGroup ? space.groupMilestone.id : space.projectMilestone.id);
    case "branch":
      return space.branch;
    case "tag_name":
      return space.tag;
    case "pipeline_schedule_id":
      return String(space.schedule.id);
    case "key":
      return space.schedule.variableKey;
    case "name":
      return lastSeg === "protected_branches" ? space.protectedBranch : space.environment;
    case "merge_request_iid":
      return String(space.mergeRequest.iid);
    case "approval_rule_id":
      return String(under("merge_requests") ? space.mergeRequestApprovalRule.id : space.approvalRule.id);
    case "runner_id":
      return String(space.runner.id);
    case "repository_storage_move_id":
      return String(path.startsWith("/groups") || path.startsWith("/group_") ? w.storageMoves.group : w.storageMoves.project);
    default:
      return "1";
  }
}
