// Benchmark dataset, written straight into each service's own tables (accounts, namespaces,
// issues schemas) of a database the services have already migrated (and where accounts has
// bootstrapped root). Rows mirror what the public API writes for the same actions (user
// namespaces with traversal ids, the creator's memberships, token digests, iid counters,
// author/assignee subscriptions, state events for closed issues, user_notes_count), so the
// services read them exactly as their own; `npm run bench` then checks the result through the API.
//
// Deterministic (seeded PRNG); bulk inserts through unnest() of array parameters, so it runs in
// seconds. `db` is anything with query(text, params) → {rows} (a pg Client).
"use strict";
const { createHash } = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");

const DEFAULTS = {
  users: 50,
  mainIssues: 10_000,
  otherIssues: 500,
  /** iid of the issue carrying ~50 notes (the notes scenario reads it). */
  notesIid: 100,
  notesOnHeavyIssue: 50,
  /** Issues with a handful of notes each (1–5), on top of the heavy one. */
  issuesWithNotes: 1_000,
  /** Merge requests in the main project (the merge-request list scenario reads its first page). */
  mergeRequests: 2_000,
  /** REPOSITORY_STORAGES of the mode seeded (required): the main project's repository goes on its first storage. */
  storages: undefined,
};

function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    sample(arr, n) {
      const copy = [...arr];
      const out = [];
      while (out.length < n && copy.length) out.push(copy.splice(Math.floor(next() * copy.length), 1)[0]);
      return out;
    },
    hex: (len) => Array.from({ length: len }, () => "0123456789abcdef"[Math.floor(next() * 16)]).join(""),
  };
}

const FIRST = ["alice", "bruno", "chen", "dana", "emeka", "fatima", "gita", "hugo", "ines", "jonas", "kira", "liam", "maya", "nils", "olga", "pavel", "quinn", "rosa", "sami", "tara", "umar", "vera", "wei", "ximena", "yusuf"];
const LAST = ["nguyen", "okafor", "schmidt", "tanaka", "rossi", "kowalski", "silva", "haddad", "novak", "larsen"];
const GROUP_LABELS = [
  ["bug", "#d9534f", "Something is broken"],
  ["feature", "#428bca", "New functionality"],
  ["enhancement", "#5cb85c", null],
  ["documentation", "#f0ad4e", "Docs only"],
  ["security", "#cc0033", "Security issue"],
  ["performance", "#8fbc8f", null],
  ["frontend", "#6699cc", null],
  ["backend", "#330066", null],
  ["api", "#009966", "Public API"],
  ["ux", "#ff9900", null],
  ["tech-debt", "#a8d695", null],
  ["regression", "#ad4363", "Worked before"],
];
const PROJECT_LABELS = [
  ["priority::1", "#ff0000", "Fix now", 1],
  ["priority::2", "#ff6600", "Fix soon", 2],
  ["priority::3", "#ffcc00", "Fix eventually", 3],
  ["needs-review", "#7f8c8d", null, null],
  ["blocked", "#000000", "Waiting on something", null],
  ["good first issue", "#69d100", null, null],
  ["customer", "#0033cc", "Reported by a customer", null],
  ["infra", "#5843ad", null, null],
];
const VERBS = ["Fix", "Improve", "Add", "Remove", "Refactor", "Investigate", "Document", "Speed up", "Handle", "Support"];
const THINGS = ["crash", "timeout", "pagination", "login redirect", "CSV export", "search results", "webhook retries", "dark mode", "rate limiting", "email digest", "audit log", "file upload", "session expiry", "label filter", "mobile layout"];
const PLACES = ["in the dashboard", "on the settings page", "for group owners", "in the REST API", "when the cache is cold", "behind the proxy", "for large projects", "in Safari", "after an upgrade", "during imports"];
const SENTENCES = [
  "Steps to reproduce are in the linked thread.",
  "This happens on every page load for some users.",
  "We saw this after the last deployment.",
  "Customers have reported it twice this week.",
  "The logs show a timeout from the upstream service.",
  "It should behave like the old implementation did.",
  "A fix probably belongs in the shared helper.",
  "Low priority, but it keeps coming back.",
  "Expected the list to keep its sort order.",
  "Please add a regression test with the fix.",
];

const title = (r) => `${r.pick(VERBS)} ${r.pick(THINGS)} ${r.pick(PLACES)}`;
function description(r) {
  const parts = Array.from({ length: r.int(1, 4) }, () => r.pick(SENTENCES));
  if (r.chance(0.2)) parts.push("\n- [x] reproduce\n- [ ] fix\n- [ ] add a test");
  return parts.join(" ");
}
const noteBody = (r) => Array.from({ length: r.int(1, 3) }, () => r.pick(SENTENCES)).join(" ");

/** `glpat-` and 20 base62 characters, like generated tokens; the database keeps only the digest. */
function tokenFor(r, i) {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let s = `bench${String(i).padStart(2, "0")}`;
  while (s.length < 20) s += abc[Math.floor(r.next() * abc.length)];
  return `glpat-${s}`;
}
const digest = (token) => createHash("sha256").update(token).digest("hex");

const DAY = 86_400_000;
const isoDate = (ms) => new Date(ms).toISOString().slice(0, 10);

/**
 * Seeds the dataset; returns a manifest for the load generator and the baseline: ids, the users
 * with their plaintext tokens, and the issue the notes scenario reads.
 */
async function seed(db, options = {}) {
  const o = { ...DEFAULTS, ...options };
  const r = prng(0xc011ab);
  const q = async (text, params) => (await db.query(text, params)).rows;
  // options.now: the same instant for two databases seeded alike (their answers are then byte for byte the same).
  const now = o.now ?? Date.now();
  const [root] = await q("SELECT id FROM accounts.users WHERE username = 'root'");
  if (!root) throw new Error("root is missing: start the services once on this database before seeding");
  const existing = await q("SELECT count(*)::int AS n FROM issues.issues");
  if (existing[0].n > 0) throw new Error("the database already holds issues: seed a fresh one");

  // ---- accounts: users and one personal access token each ----------------------------------
  const people = [];
  for (let i = 0; people.length < o.users; i++) {
    const first = FIRST[i % FIRST.length];
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
    const username = `${first}.${last}`;
    people.push({ username, name: `${first[0].toUpperCase()}${first.slice(1)} ${last[0].toUpperCase()}${last.slice(1)}`, email: `${username}@example.com` });
  }
  const createdAt = people.map(() => new Date(now - r.int(400, 800) * DAY));
  const userRows = await q(
    `INSERT INTO accounts.users (username, email, name, created_by_id, confirmed_at, created_at, updated_at)
     SELECT u.username, u.email, u.name, $4, u.at, u.at, u.at FROM unnest($1::text[], $2::text[], $3::text[], $5::timestamptz[]) AS u(username, email, name, at)
     RETURNING id, username, name`,
    [people.map((p) => p.username), people.map((p) => p.email), people.map((p) => p.name), root.id, createdAt],
  );
  const users = userRows.map((u, i) => ({ id: u.id, username: u.username, name: u.name, token: tokenFor(r, i + 1) }));
  const expires = isoDate(now + 365 * DAY);
  await q(
    `INSERT INTO accounts.personal_access_tokens (user_id, name, token_digest, scopes, expires_at)
     SELECT u.user_id, 'bench', u.digest, ARRAY['api']::text[], $3::date FROM unnest($1::int[], $2::text[]) AS u(user_id, digest)`,
    [users.map((u) => u.id), users.map((u) => digest(u.token)), expires],
  );

  // ---- namespaces: personal namespaces, the group, its projects, members ----------------------
  await q(
    `INSERT INTO namespaces.namespaces (kind, name, path, owner_id, full_path, full_name, visibility)
     SELECT 'user', u.name, u.username, u.id, u.username, u.name, 'public' FROM unnest($1::int[], $2::text[], $3::text[]) AS u(id, username, name)`,
    [users.map((u) => u.id), users.map((u) => u.username), users.map((u) => u.name)],
  );
  const [group] = await q(
    `INSERT INTO namespaces.namespaces (kind, name, path, full_path, full_name, visibility, description)
     VALUES ('group', 'Acme', 'acme', 'acme', 'Acme', 'private', 'Everything Acme builds') RETURNING id`,
  );
  await q(`UPDATE namespaces.namespaces SET traversal_ids = ARRAY[id] WHERE traversal_ids = '{}'`);
  const projectRows = await q(
    `INSERT INTO namespaces.projects (namespace_id, name, path, description, visibility, creator_id)
     VALUES ($1, 'Platform', 'platform', 'The core product', 'private', $2), ($1, 'Website', 'website', 'Marketing site', 'private', $2)
     RETURNING id, path`,
    [group.id, root.id],
  );
  const platform = projectRows.find((p) => p.path === "platform").id;
  const website = projectRows.find((p) => p.path === "website").id;
  // The group's creator owns it; a project's creator is its Maintainer (what the API records).
  const levels = users.map((_, i) => (i < 5 ? 40 : i < 40 ? 30 : 20));
  await q(
    `INSERT INTO namespaces.members (source_type, source_id, user_id, access_level, created_by_id)
     SELECT 'Namespace', $1::int, $2::int, 50, $2::int
     UNION ALL SELECT 'Project', p, $2::int, 40, $2::int FROM unnest($3::int[]) AS p
     UNION ALL SELECT 'Namespace', $1::int, u.id, u.level, $2::int FROM unnest($4::int[], $5::int[]) AS u(id, level)`,
    [group.id, root.id, [platform, website], users.map((u) => u.id), levels],
  );

  // ---- labels and milestones -----------------------------------------------------------------
  const groupLabels = await q(
    `INSERT INTO namespaces.labels (group_id, title, color, description)
     SELECT $1, l.title, l.color, l.description FROM unnest($2::text[], $3::text[], $4::text[]) AS l(title, color, description) RETURNING id`,
    [group.id, GROUP_LABELS.map((l) => l[0]), GROUP_LABELS.map((l) => l[1]), GROUP_LABELS.map((l) => l[2])],
  );
  const projectLabels = await q(
    `INSERT INTO namespaces.labels (project_id, title, color, description, priority)
     SELECT $1, l.title, l.color, l.description, l.priority FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) AS l(title, color, description, priority) RETURNING id`,
    [platform, PROJECT_LABELS.map((l) => l[0]), PROJECT_LABELS.map((l) => l[1]), PROJECT_LABELS.map((l) => l[2]), PROJECT_LABELS.map((l) => l[3])],
  );
  const ms = (days) => isoDate(now + days * DAY);
  const projectMilestones = await q(
    `INSERT INTO namespaces.milestones (iid, project_id, title, description, state, start_date, due_date) VALUES
       (1, $1, 'v1.0', 'First release', 'closed', $2, $3), (2, $1, 'v1.1', NULL, 'active', $3, $4), (3, $1, 'v2.0', 'The big one', 'active', $4, $5)
     RETURNING id`,
    [platform, ms(-200), ms(-60), ms(30), ms(150)],
  );
  const groupMilestones = await q(
    `INSERT INTO namespaces.milestones (iid, group_id, title, state, start_date, due_date) VALUES (1, $1, 'Q4', 'active', $2, $3), (2, $1, 'Q1', 'active', $3, $4)
     RETURNING id`,
    [group.id, ms(-30), ms(60), ms(150)],
  );

  // ---- issues ----------------------------------------------------------------------------------
  const memberIds = users.map((u) => u.id);
  const cols = { project: [], iid: [], title: [], description: [], state: [], author: [], closedBy: [], closedAt: [], milestone: [], due: [], confidential: [], weight: [], position: [], created: [], updated: [] };
  const links = [];
  const plan = [
    { project: platform, count: o.mainIssues, labels: [...groupLabels, ...projectLabels].map((l) => l.id), milestones: [...projectMilestones, ...groupMilestones].map((m) => m.id) },
    { project: website, count: o.otherIssues, labels: groupLabels.map((l) => l.id), milestones: groupMilestones.map((m) => m.id) },
  ];
  for (const p of plan) {
    for (let iid = 1; iid <= p.count; iid++) {
      const created = now - 730 * DAY + Math.floor(((iid - 0.5) / p.count) * 725 * DAY) + r.int(0, 3_600_000);
      const updated = Math.min(now - 60_000, created + r.int(0, 30) * DAY + r.int(0, 86_400_000));
      const closed = r.chance(created < now - 120 * DAY ? 0.45 : 0.15);
      cols.project.push(p.project);
      cols.iid.push(iid);
      cols.title.push(title(r));
      cols.description.push(description(r));
      cols.state.push(closed ? "closed" : "opened");
      cols.author.push(r.chance(0.03) ? root.id : r.pick(memberIds));
      cols.closedBy.push(closed ? r.pick(memberIds) : null);
      cols.closedAt.push(closed ? new Date(updated) : null);
      cols.milestone.push(r.chance(0.6) ? r.pick(p.milestones) : null);
      cols.due.push(r.chance(0.15) ? isoDate(created + r.int(7, 90) * DAY) : null);
      cols.confidential.push(r.chance(0.02));
      cols.weight.push(r.chance(0.3) ? r.int(1, 8) : null);
      cols.position.push(iid * 1024);
      cols.created.push(new Date(created));
      cols.updated.push(new Date(updated));
      const n = r.next();
      const labelCount = n < 0.2 ? 0 : n < 0.6 ? 1 : n < 0.9 ? 2 : 3;
      const a = r.next();
      // Ascending ids: the order both the services (insertion order) and the baseline (by id) read back.
      const assignees = a < 0.25 ? [] : r.sample(memberIds, a < 0.9 ? 1 : 2).sort((x, y) => x - y);
      links.push({ labels: r.sample(p.labels, labelCount), assignees });
    }
  }
  const issueRows = await q(
    `INSERT INTO issues.issues (project_id, iid, title, description, state, author_id, closed_by_id, closed_at, milestone_id, due_date, confidential, weight, relative_position, created_at, updated_at, updated_by_id)
     SELECT * , NULL::int FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::timestamptz[], $9::int[], $10::date[], $11::boolean[], $12::int[], $13::int[], $14::timestamptz[], $15::timestamptz[])
     RETURNING id, project_id, iid`,
    [cols.project, cols.iid, cols.title, cols.description, cols.state, cols.author, cols.closedBy, cols.closedAt, cols.milestone, cols.due, cols.confidential, cols.weight, cols.position, cols.created, cols.updated],
  );
  const idOf = new Map(issueRows.map((row) => [`${row.project_id}/${row.iid}`, row.id]));
  const ids = cols.iid.map((iid, i) => idOf.get(`${cols.project[i]}/${iid}`));
  const pairs = (pick) => {
    const a = [];
    const b = [];
    ids.forEach((id, i) => pick(i).forEach((x) => (a.push(id), b.push(x))));
    return [a, b];
  };
  const [labelIssue, labelId] = pairs((i) => links[i].labels);
  await q(`INSERT INTO issues.issue_labels (issue_id, label_id) SELECT * FROM unnest($1::int[], $2::int[])`, [labelIssue, labelId]);
  const [assigneeIssue, assigneeId] = pairs((i) => links[i].assignees);
  await q(`INSERT INTO issues.issue_assignees (issue_id, user_id) SELECT * FROM unnest($1::int[], $2::int[])`, [assigneeIssue, assigneeId]);
  // The author and assignees follow each issue.
  const [subIssue, subUser] = pairs((i) => [...new Set([cols.author[i], ...links[i].assignees])]);
  await q(`INSERT INTO issues.subscriptions (subscribable_type, subscribable_id, user_id, subscribed) SELECT 'Issue', s.id, s.u, true FROM unnest($1::int[], $2::int[]) AS s(id, u)`, [subIssue, subUser]);
  const closedIdx = cols.state.map((s, i) => (s === "closed" ? i : -1)).filter((i) => i >= 0);
  await q(
    `INSERT INTO issues.resource_state_events (user_id, issue_id, state, created_at) SELECT e.u, e.id, 'closed', e.at FROM unnest($1::int[], $2::int[], $3::timestamptz[]) AS e(u, id, at)`,
    [closedIdx.map((i) => cols.closedBy[i]), closedIdx.map((i) => ids[i]), closedIdx.map((i) => cols.closedAt[i])],
  );
  await q(`INSERT INTO issues.internal_ids (project_id, usage, last_value) VALUES ($1, 'issues', $2), ($3, 'issues', $4)`, [platform, o.mainIssues, website, o.otherIssues]);

  // ---- notes: one busy issue (~50 notes, a few of them system notes), ~1,000 issues with 1–5 ----
  const notes = { issue: [], project: [], author: [], body: [], system: [], discussion: [], at: [] };
  const addNote = (i, system, at) => {
    notes.issue.push(ids[i]);
    notes.project.push(cols.project[i]);
    notes.author.push(r.pick(memberIds));
    notes.body.push(system ? r.pick(["added ~1 label", "changed milestone to %2", "assigned to @alice.nguyen", "changed the description", "marked this issue as related to #7"]) : noteBody(r));
    notes.system.push(system);
    notes.discussion.push(r.hex(40));
    notes.at.push(new Date(at));
  };
  const heavy = cols.iid.findIndex((iid, i) => cols.project[i] === platform && iid === o.notesIid);
  for (let k = 0; k < o.notesOnHeavyIssue; k++) addNote(heavy, k % 10 === 3, cols.created[heavy].getTime() + (k + 1) * 3_600_000);
  const platformIdx = ids.map((_, i) => i).filter((i) => cols.project[i] === platform && i !== heavy);
  for (const i of r.sample(platformIdx, o.issuesWithNotes)) {
    const n = r.int(1, 5);
    for (let k = 0; k < n; k++) addNote(i, false, cols.created[i].getTime() + r.int(1, 20 * 24) * 3_600_000);
  }
  await q(
    `INSERT INTO issues.notes (noteable_type, noteable_id, project_id, author_id, body, system, discussion_id, created_at, updated_at)
     SELECT 'Issue', n.id, n.project, n.author, n.body, n.system, n.discussion, n.at, n.at
     FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::boolean[], $6::text[], $7::timestamptz[]) AS n(id, project, author, body, system, discussion, at)`,
    [notes.issue, notes.project, notes.author, notes.body, notes.system, notes.discussion, notes.at],
  );
  await q(`UPDATE issues.issues i SET user_notes_count = c.n FROM (SELECT noteable_id, count(*)::int AS n FROM issues.notes WHERE noteable_type = 'Issue' AND NOT system GROUP BY noteable_id) c WHERE c.noteable_id = i.id`);
  const mr = await seedMergeRequests(q, {
    o,
    now,
    root,
    users,
    levels,
    projectId: platform,
    labelIds: [...groupLabels, ...projectLabels].map((l) => l.id),
    milestoneIds: [...projectMilestones, ...groupMilestones].map((m) => m.id),
  });
  // VACUUM too, not only ANALYZE: otherwise autovacuum vacuums the freshly inserted tables (an
  // insert-triggered vacuum) during the first scenario, measured in every mode.
  await q("VACUUM ANALYZE");

  const counts = (await q(
    `SELECT (SELECT count(*)::int FROM issues.issues) AS issues, (SELECT count(*)::int FROM issues.notes) AS notes,
            (SELECT count(*)::int FROM issues.issue_labels) AS issue_labels, (SELECT count(*)::int FROM issues.issue_assignees) AS assignees,
            (SELECT count(*)::int FROM namespaces.labels) AS labels, (SELECT count(*)::int FROM namespaces.milestones) AS milestones,
            (SELECT count(*)::int FROM namespaces.members) AS members, (SELECT count(*)::int FROM accounts.users) AS users,
            (SELECT count(*)::int FROM merge_requests.merge_requests) AS merge_requests, (SELECT count(*)::int FROM merge_requests.notes) AS merge_request_notes,
            (SELECT count(*)::int FROM merge_requests.approvals) AS approvals`,
  ))[0];
  counts.commits = mr.commits;
  counts.branches = mr.branches;
  return {
    groupId: group.id,
    projectId: platform,
    otherProjectId: website,
    mainIssues: o.mainIssues,
    notesIid: o.notesIid,
    notesOnHeavyIssue: o.notesOnHeavyIssue,
    /** Merge requests of the main project (X-Total of its merge-request list). */
    mergeRequests: mr.count,
    /** What the create scenario sends: an active project milestone and a Developer to assign. */
    milestoneId: projectMilestones[2].id,
    assigneeId: users[5].id,
    users,
    counts,
    /** Initial state of an iid of the main project, so writers can alternate close/reopen. */
    closedIids: cols.iid.filter((iid, i) => cols.project[i] === platform && cols.state[i] === "closed"),
  };
}

// ---- merge requests ------------------------------------------------------------------------------

const MR_KINDS = ["fix", "feature", "refactor", "docs", "perf", "chore"];
const FOLLOW_UPS = ["Address review comments", "Add tests", "Fix lint", "Update the changelog", "Handle the empty case"];
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40);
const HOUR = 3_600_000;

/**
 * Merge requests of the main project, with the repository they need (a real git repository on the
 * mode's storage, see writeRepository: merge requests' shas are its branch heads), written as the
 * API leaves them after the same history: the project created with a README (default branch `main`, its
 * initial commit, `main` protected the first time anyone merges), a `develop` branch, two project
 * approval rules; then for each merge request, in time order: its source branch pushed from the
 * target's head (1–3 commits, `commits.create`), the merge request (`writes.ts` createMergeRequest:
 * labels, assignees, reviewers, milestone, Draft prefix → draft), approvals (each with its
 * "approved this merge request" system note), comments and threads (user_notes_count), and its end:
 * merged (`refs.mergeBranches`: an optional squash commit and a merge commit on the target, the
 * source branch removed when asked; `recordMerge`: merge user, shas, a `merged` state event) or
 * closed (closed_by/closed_at, a `closed` state event; some source branches deleted later).
 * Its own PRNG stream, so the rest of the dataset is the same with or without it.
 */
async function seedMergeRequests(q, { o, now, root, users, levels, projectId, labelIds, milestoneIds }) {
  const r = prng(0x3e7c0de);
  const n = o.mergeRequests;
  const host = new URL(process.env.EXTERNAL_URL ?? "http://collab.test").hostname;
  const [rootRow] = await q("SELECT username, name FROM accounts.users WHERE id = $1", [root.id]);
  const [{ path }] = await q(`SELECT n.full_path || '/' || p.path AS path FROM namespaces.projects p JOIN namespaces.namespaces n ON n.id = p.namespace_id WHERE p.id = $1`, [projectId]);
  const people = [{ id: root.id, username: rootRow.username, name: rootRow.name, level: 50 }, ...users.map((u, i) => ({ id: u.id, username: u.username, name: u.name, level: levels[i] }))];
  const developers = people.filter((p) => p.level >= 30 && p.id !== root.id);
  const maintainers = people.filter((p) => p.level >= 40 && p.id !== root.id);
  const email = (u) => `${u.username}@noreply.${host}`;

  // ---- the repository: created with a README, main protected, develop branched off early ----------
  const projectCreated = new Date(now - 740 * DAY);
  await q(`UPDATE namespaces.projects SET default_branch = 'main', empty_repo = false, created_at = $2 WHERE id = $1`, [projectId, projectCreated]);
  await q(`INSERT INTO namespaces.protected_branch_defaults (project_id) VALUES ($1)`, [projectId]);
  await q(`INSERT INTO namespaces.protected_branches (project_id, name, created_at) VALUES ($1, 'main', $2)`, [projectId, projectCreated]);
  // The history as git fast-import writes it (shared/git's importCommits): commits by index, each
  // on a branch, from a parent commit, with the files it changes.
  const history = [];
  const commit = (message, author, at, o2) => {
    r.hex(40); // the draw the simulated sha took: the rest of the stream, and so the history, stays the same
    history.push({ message, author, date: Math.floor(at / 1000), ...o2 });
    return history.length - 1;
  };
  /** Branch → its head (an index of `history`) and creation time, as the repository ends up. */
  const branches = new Map();
  branches.set("main", { sha: commit("Initial commit", { name: "Administrator", email: "admin@example.com" }, projectCreated, { branch: "main", files: { "README.md": "# Platform\n" } }), at: projectCreated });
  const developAt = new Date(now - 730 * DAY);
  branches.set("develop", { sha: branches.get("main").sha, at: developAt });

  // ---- approval rules: anyone from Developer up, and a Maintainer on protected branches ----------
  const rulesAt = new Date(now - 735 * DAY);
  const rules = await q(
    `INSERT INTO merge_requests.approval_project_rules (project_id, name, rule_type, approvals_required, applies_to_all_protected_branches, created_at, updated_at)
     VALUES ($1, 'All Members', 'any_approver', 1, false, $2, $2), ($1, 'Maintainers', 'regular', 1, true, $2, $2) RETURNING id, name`,
    [projectId, rulesAt],
  );
  const maintainersRule = rules.find((x) => x.name === "Maintainers").id;
  await q(`INSERT INTO merge_requests.approval_project_rule_users (rule_id, user_id) SELECT $1, u FROM unnest($2::int[]) AS u`, [maintainersRule, maintainers.map((m) => m.id)]);

  // ---- the merge requests, then their history in time order ----------------------------------------
  const mrs = [];
  for (let iid = 1; iid <= n; iid++) {
    const created = now - 720 * DAY + Math.floor(((iid - 0.5) / n) * 715 * DAY) + r.int(0, HOUR);
    const author = r.chance(0.03) ? people[0] : r.pick(developers);
    const x = r.next();
    const state = created > now - 30 * DAY ? (x < 0.7 ? "opened" : x < 0.9 ? "merged" : "closed") : x < 0.6 ? "merged" : x < 0.8 ? "closed" : "opened";
    const base = title(r);
    const draft = state === "opened" ? r.chance(0.12) : state === "closed" ? r.chance(0.08) : false;
    const target = r.chance(0.15) ? "develop" : "main";
    const others = developers.filter((d) => d.id !== author.id);
    const a = r.next();
    const m = {
      iid,
      created,
      author,
      state,
      title: draft ? `${r.pick(["Draft: ", "Draft: ", "Draft: ", "[Draft] ", "(Draft) "])}${base}` : base,
      description: r.chance(0.1) ? null : description(r),
      draft,
      source: `${r.pick(MR_KINDS)}/${iid}-${slug(base)}`,
      target,
      labels: r.sample(labelIds, r.pick([0, 1, 1, 2, 2, 3])),
      milestone: r.chance(0.4) ? r.pick(milestoneIds) : null,
      // Given in ascending id order (as a client picking from a list would send them).
      assignees: (a < 0.2 ? [] : a < 0.8 ? [author.id] : a < 0.95 ? [r.pick(others).id] : [author.id, r.pick(others).id]).sort((p, q2) => p - q2),
      reviewers: r.sample(others, r.pick([0, 1, 1, 1, 2])).map((u) => u.id),
      squash: r.chance(0.25),
      forceRemove: r.chance(0.7),
      approvals: [],
      notes: [],
      end: null,
    };
    // Hours until the merge or the close, never past the present.
    const after = (maxHours) => created + r.int(1, Math.min(maxHours, Math.floor((now - created) / HOUR) - 1)) * HOUR + r.int(0, HOUR / 2);
    if (state === "merged") {
      m.end = after(240);
      // The merge needed the rules met: a Maintainer on main (both rules), anyone from Developer up on develop.
      const first = r.pick((target === "main" ? maintainers : developers).filter((d) => d.id !== author.id));
      m.approvals.push(first.id);
      if (r.chance(0.3)) m.approvals.push(r.pick(others.filter((d) => d.id !== first.id)).id);
      m.mergeUser = r.pick(target === "main" ? maintainers : developers);
    } else if (state === "closed") {
      m.end = after(30 * 24);
      m.closer = r.chance(0.6) ? author : r.pick(maintainers);
      if (r.chance(0.1)) m.approvals.push(r.pick(others).id);
      m.dropBranch = r.chance(0.3);
    } else {
      m.approvals = r.sample(others, r.pick([0, 0, 0, 1, 1, 2])).map((u) => u.id);
      m.dropBranch = r.chance(0.03);
    }
    const last = m.end ?? now - HOUR;
    const within = () => created + Math.floor(r.next() * (last - created));
    m.approvalTimes = m.approvals.map(() => within()).sort((p, q2) => p - q2);
    if (r.chance(0.25)) {
      // Comments and threads; threads of merged merge requests were resolved before the merge.
      for (let t = r.int(1, 3); t > 0; t--) {
        const thread = r.chance(0.5);
        const discussion = r.hex(40);
        const replies = thread ? r.int(0, 2) : 0;
        const resolved = thread && (state !== "opened" || r.chance(0.5));
        const inThread = [];
        let at = within();
        for (let k = 0; k <= replies; k++) {
          inThread.push({ author: r.pick(people).id, body: noteBody(r), type: thread ? "DiscussionNote" : null, discussion, at });
          at = Math.min(at + r.int(1, 48) * HOUR, last);
        }
        // Resolving a thread resolves all its notes at once, by the merge request's author.
        const resolvedAt = resolved ? Math.max(inThread.at(-1).at, Math.min(inThread.at(-1).at + r.int(1, 24) * HOUR, last)) : null;
        for (const x of inThread) m.notes.push({ ...x, resolvedAt });
      }
      m.notes.sort((p, q2) => p.at - q2.at);
    }
    mrs.push(m);
  }

  const events = [];
  for (const m of mrs) {
    events.push({ at: m.created, m, kind: "open" });
    if (m.state === "merged") events.push({ at: m.end, m, kind: "merge" });
  }
  events.sort((p, q2) => p.at - q2.at);
  for (const { m, kind } of events) {
    if (kind === "open") {
      // The source branch pushed from the target's head a little before the merge request.
      const k = r.int(1, 3);
      const firstAt = m.created - k * r.int(5, 60) * 60_000;
      const by = { name: m.author.name, email: email(m.author) };
      m.files = {};
      let head = branches.get(m.target).sha;
      for (let j = 0; j < k; j++) {
        const message = j === 0 ? m.title.replace(/^\s*(\[draft\]|\(draft\)|draft:)+\s*/i, "") : r.pick(FOLLOW_UPS);
        const file = { [`changes/${m.iid}-${j}.md`]: `${message}\n` };
        Object.assign(m.files, file);
        head = commit(message, by, firstAt + j * 60_000, { branch: m.source, ...(j === 0 ? { from: head } : {}), files: file });
      }
      branches.set(m.source, { sha: head, at: new Date(firstAt) });
      m.head = head;
    } else {
      const target = branches.get(m.target).sha;
      const by = { name: m.mergeUser.name, email: email(m.mergeUser) };
      // A merge commit's tree is its first parent's plus what it lists: the merged changes.
      let merged = m.head;
      if (m.squash) merged = m.squashIndex = commit(m.title, by, m.end, { branch: m.target, from: target, files: m.files });
      m.mergeIndex = commit(`Merge branch '${m.source}' into '${m.target}'\n\n${m.title}\n\nSee merge request ${path}!${m.iid}`, by, m.end, {
        branch: m.target,
        from: target,
        merge: [merged],
        files: m.files,
      });
      branches.set(m.target, { ...branches.get(m.target), sha: m.mergeIndex });
      if (m.forceRemove) branches.delete(m.source);
    }
  }
  for (const m of mrs) if (m.dropBranch) branches.delete(m.source);

  const shas = await writeRepository(q, o.storages, projectId, history, branches);
  for (const m of mrs) {
    m.sha = shas[m.head];
    if (m.mergeIndex !== undefined) m.mergeSha = shas[m.mergeIndex];
    if (m.squashIndex !== undefined) m.squashSha = shas[m.squashIndex];
  }

  const col = (f) => mrs.map(f);
  const merged = (m) => m.state === "merged";
  const closed = (m) => m.state === "closed";
  const rows = await q(
    `INSERT INTO merge_requests.merge_requests (project_id, source_project_id, iid, title, description, state, draft, author_id, source_branch, target_branch, sha,
       merge_commit_sha, squash_commit_sha, merge_user_id, merged_at, closed_by_id, closed_at, milestone_id, squash, force_remove_source_branch, should_remove_source_branch,
       updated_by_id, created_at, updated_at, source_branch_exists, merge_status)
     SELECT $1::int, $1::int, m.* FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::int[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int[],
       $14::timestamptz[], $15::int[], $16::timestamptz[], $17::int[], $18::boolean[], $19::boolean[], $20::boolean[], $21::int[], $22::timestamptz[], $23::timestamptz[], $24::boolean[], $25::text[]) AS m
     RETURNING id, iid`,
    [
      projectId,
      col((m) => m.iid),
      col((m) => m.title),
      col((m) => m.description),
      col((m) => m.state),
      col((m) => m.draft),
      col((m) => m.author.id),
      col((m) => m.source),
      col((m) => m.target),
      col((m) => m.sha),
      col((m) => (merged(m) ? m.mergeSha : null)),
      col((m) => (merged(m) ? (m.squashSha ?? null) : null)),
      col((m) => (merged(m) ? m.mergeUser.id : null)),
      col((m) => (merged(m) ? new Date(m.end) : null)),
      col((m) => (closed(m) ? m.closer.id : null)),
      col((m) => (closed(m) ? new Date(m.end) : null)),
      col((m) => m.milestone),
      col((m) => m.squash),
      col((m) => m.forceRemove),
      col((m) => (merged(m) ? m.forceRemove : null)),
      col((m) => (merged(m) ? m.mergeUser.id : closed(m) ? m.closer.id : null)),
      col((m) => new Date(m.created)),
      col((m) => new Date(m.end ?? m.created)),
      // The git state the merge-request service stores and its lists show: each merge request's
      // commits touch files of their own, so a branch still there merges cleanly.
      col((m) => branches.has(m.source)),
      col((m) => (branches.has(m.source) || merged(m) ? "can_be_merged" : "cannot_be_merged")),
    ],
  );
  const idOf = new Map(rows.map((x) => [x.iid, x.id]));
  for (const m of mrs) m.id = idOf.get(m.iid);
  const pairs = (pick) => {
    const out = [[], [], []];
    for (const m of mrs) for (const [v, at] of pick(m)) out[0].push(m.id), out[1].push(v), out[2].push(at);
    return out;
  };
  const [labelMr, labelId] = pairs((m) => m.labels.map((l) => [l]));
  await q(`INSERT INTO merge_requests.merge_request_labels (merge_request_id, label_id) SELECT * FROM unnest($1::int[], $2::int[])`, [labelMr, labelId]);
  const [assigneeMr, assigneeId] = pairs((m) => m.assignees.map((u) => [u]));
  await q(`INSERT INTO merge_requests.merge_request_assignees (merge_request_id, user_id) SELECT * FROM unnest($1::int[], $2::int[])`, [assigneeMr, assigneeId]);
  const [reviewerMr, reviewerId, reviewerAt] = pairs((m) => m.reviewers.map((u) => [u, new Date(m.created)]));
  await q(`INSERT INTO merge_requests.merge_request_reviewers (merge_request_id, user_id, created_at) SELECT * FROM unnest($1::int[], $2::int[], $3::timestamptz[])`, [reviewerMr, reviewerId, reviewerAt]);
  const [approvalMr, approvalUser, approvalAt] = pairs((m) => m.approvals.map((u, i) => [u, new Date(m.approvalTimes[i])]));
  await q(`INSERT INTO merge_requests.approvals (merge_request_id, user_id, created_at) SELECT * FROM unnest($1::int[], $2::int[], $3::timestamptz[])`, [approvalMr, approvalUser, approvalAt]);
  const events2 = mrs.filter((m) => m.state !== "opened");
  await q(
    `INSERT INTO merge_requests.resource_state_events (user_id, merge_request_id, state, created_at) SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::timestamptz[])`,
    [events2.map((m) => (merged(m) ? m.mergeUser.id : m.closer.id)), events2.map((m) => m.id), events2.map((m) => m.state), events2.map((m) => new Date(m.end))],
  );

  // Notes: each approval's system note, the comments and threads (resolvable, some resolved).
  const notes = { mr: [], author: [], body: [], system: [], type: [], discussion: [], resolvable: [], resolvedAt: [], resolvedBy: [], at: [], updated: [] };
  const note = (m, x) => {
    notes.mr.push(m.id);
    notes.author.push(x.author);
    notes.body.push(x.body);
    notes.system.push(x.system);
    notes.type.push(x.type);
    notes.discussion.push(x.discussion);
    notes.resolvable.push(x.resolvable);
    notes.resolvedAt.push(x.resolvedAt === null || x.resolvedAt === undefined ? null : new Date(x.resolvedAt));
    notes.resolvedBy.push(x.resolvedBy ?? null);
    notes.at.push(new Date(x.at));
    notes.updated.push(new Date(x.resolvedAt ?? x.at));
  };
  for (const m of mrs) {
    m.approvals.forEach((u, i) => note(m, { author: u, body: "approved this merge request", system: true, type: null, discussion: r.hex(40), resolvable: false, at: m.approvalTimes[i] }));
    for (const x of m.notes) {
      const resolvable = x.type === "DiscussionNote";
      note(m, { ...x, system: false, resolvable, resolvedAt: x.resolvedAt, resolvedBy: x.resolvedAt ? m.author.id : null });
    }
  }
  await q(
    `INSERT INTO merge_requests.notes (noteable_type, noteable_id, project_id, author_id, body, system, type, discussion_id, resolvable, resolved_at, resolved_by_id, created_at, updated_at)
     SELECT 'MergeRequest', n.mr, $1, n.author, n.body, n.system, n.type, n.discussion, n.resolvable, n.resolved_at, n.resolved_by, n.at, n.updated
     FROM unnest($2::int[], $3::int[], $4::text[], $5::boolean[], $6::text[], $7::text[], $8::boolean[], $9::timestamptz[], $10::int[], $11::timestamptz[], $12::timestamptz[])
       AS n(mr, author, body, system, type, discussion, resolvable, resolved_at, resolved_by, at, updated)`,
    [projectId, notes.mr, notes.author, notes.body, notes.system, notes.type, notes.discussion, notes.resolvable, notes.resolvedAt, notes.resolvedBy, notes.at, notes.updated],
  );
  await q(
    `UPDATE merge_requests.merge_requests m SET user_notes_count = c.n FROM (SELECT noteable_id, count(*)::int AS n FROM merge_requests.notes WHERE noteable_type = 'MergeRequest' AND NOT system GROUP BY noteable_id) c WHERE c.noteable_id = m.id`,
  );
  await q(`INSERT INTO merge_requests.internal_ids (project_id, usage, last_value) VALUES ($1, 'merge_requests', $2)`, [projectId, n]);
  return { count: n, commits: history.length, branches: branches.size };
}

/**
 * The project's bare repository on the first storage of `storages` (the mode's
 * REPOSITORY_STORAGES), where the repositories service looks for it: its record in
 * repositories.repositories and its folder (GitLab's hashed path). The history goes in with git
 * fast-import; then the branches are set to their final heads (the removed ones deleted) in one
 * ref transaction. Answers the commits' shas (same order as `history`).
 */
async function writeRepository(q, storages, projectId, history, branches) {
  if (!storages) throw new Error("seed: options.storages (the mode's REPOSITORY_STORAGES) names where the bench project's repository goes");
  const { importCommits, initBareRepository, runGit } = require(path.join(ROOT, "shared/git/dist"));
  const { hashedDiskPath } = require(path.join(ROOT, "services/repositories/dist/domain/disk-path"));
  const first = storages.split(",")[0];
  const storage = first.slice(0, first.indexOf(":"));
  const folder = path.resolve(first.slice(first.indexOf(":") + 1));
  const diskPath = hashedDiskPath("project", projectId);
  const dir = path.join(folder, diskPath);
  fs.rmSync(dir, { recursive: true, force: true });
  await initBareRepository(dir, "main");
  await q(
    `INSERT INTO repositories.repositories (container_kind, container_id, storage, disk_path) VALUES ('project', $1, $2, $3)
     ON CONFLICT (container_kind, container_id) DO UPDATE SET storage = EXCLUDED.storage, disk_path = EXCLUDED.disk_path`,
    [projectId, storage, diskPath],
  );
  const shas = await importCommits(dir, history);
  const written = new Set(history.map((c) => c.branch));
  const updates = [...written].filter((b) => !branches.has(b)).map((b) => `delete refs/heads/${b}\n`);
  for (const [name, b] of branches) updates.push(`update refs/heads/${name} ${shas[b.sha]}\n`);
  await runGit(dir, ["update-ref", "--stdin"], { input: Buffer.from(updates.join("")) });
  return shas;
}

module.exports = { seed, DEFAULTS };
