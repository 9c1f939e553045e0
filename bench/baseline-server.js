// The benchmark's ceiling: a plain node:http + pg server answering the benchmark's requests the way
// one careful process owning the whole database would, with the same JSON and headers as the API.
// Written from scratch, not from the services' queries:
//
//   - every request authenticates its token by digest (one statement, nothing cached: a revoked
//     token fails on the next request, as the API must);
//   - the project comes with the caller's effective level in one statement;
//   - lists run the page (labels, assignees and milestone joined) and a count an index serves (the
//     confidentiality predicate only for callers below Reporter) in parallel, then the user refs;
//   - a create checks labels, milestone and assignees in one statement and writes the issue, its
//     iid, links, subscriptions and outbox event in one more (one commit);
//   - every statement is named (prepared once per connection).
//
//   DATABASE_URL=postgres://… PORT=3000 EXTERNAL_URL=http://collab.test [WORKERS=2] node bench/baseline-server.js
//
// Only what the benchmark sends is handled; anything else is a 404.
"use strict";
const http = require("node:http");
const { createHash, randomUUID } = require("node:crypto");
const pg = require("pg");

pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10)); // int8 (count) as numbers, as shared/db does
pg.types.setTypeParser(1082, (v) => v); // date columns as YYYY-MM-DD strings, as drizzle's mode "string"

const PORT = Number(process.env.PORT ?? 3000);
const HOST = process.env.HOST ?? "127.0.0.1";
const BASE = (process.env.EXTERNAL_URL ?? `http://localhost:${PORT}`).replace(/\/+$/, "");
const TIER = process.env.LICENSE_TIER ?? "ultimate";
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.PG_POOL_MAX ?? 10) });
pool.on("error", () => undefined);

const ACCESS = { GUEST: 10, PLANNER: 15, REPORTER: 20, OWNER: 50, ADMIN: 60 };

class HttpError extends Error {
  constructor(status, body) {
    super(JSON.stringify(body));
    this.status = status;
    this.body = body;
  }
}
const notFound = (what) => new HttpError(404, { message: `404 ${what} Not Found` });

// ---- SQL: every statement named (server-side prepared: parsed and planned once per connection) ----

const statementNames = new Map();
const nameOf = (text) => {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `b${createHash("sha1").update(text).digest("hex").slice(0, 16)}`));
  return name;
};
const q = async (text, values, client = pool) => (await client.query({ name: nameOf(text), text, values })).rows;

// ---- authentication: the token by its digest, every request (nothing cached) ---------------------

const TOKEN_SQL = `select t."id" as token_id, t."scopes", t."expires_at", t."revoked", t."last_used_at",
    u."id", u."username", u."name", u."state", u."admin", u."external"
  from "accounts"."personal_access_tokens" t join "accounts"."users" u on u."id" = t."user_id" where t."token_digest" = $1`;

async function authenticate(req) {
  const token = req.headers["private-token"];
  if (typeof token !== "string" || !token) throw new HttpError(401, { message: "401 Unauthorized" });
  const [row] = await q(TOKEN_SQL, [createHash("sha256").update(token).digest("hex")]);
  if (!row) throw new HttpError(401, { message: "401 Unauthorized" });
  if (row.revoked) throw new HttpError(401, { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." });
  if (row.expires_at && row.expires_at <= new Date().toISOString().slice(0, 10))
    throw new HttpError(401, { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." });
  if (row.state === "blocked" || row.state === "banned") throw new HttpError(403, { message: "403 Forbidden - Your account has been blocked." });
  if (Date.now() - (row.last_used_at?.getTime() ?? 0) > 10 * 60_000)
    await q(`update "accounts"."personal_access_tokens" set "last_used_at" = now() where "id" = $1`, [row.token_id]);
  if (!row.scopes.includes("api") && !(req.method === "GET" && row.scopes.includes("read_api")))
    throw new HttpError(403, { error: "insufficient_scope", error_description: "The request requires higher privileges than provided by the access token.", scope: "api" });
  return { id: row.id, username: row.username, name: row.name, state: row.state, admin: row.admin, external: row.external };
}

// ---- the project with the caller's effective level, one statement ------------------------------------

/** Max membership level of user `user` on project `project` whose namespace row is `n`. */
const memberLevel = (user, project) => `coalesce((select max(m."access_level") from "namespaces"."members" m where m."user_id" = ${user}
      and (m."expires_at" is null or m."expires_at" > current_date)
      and ((m."source_type" = 'Project' and m."source_id" = ${project}) or (m."source_type" = 'Namespace' and m."source_id" = any(n."traversal_ids")))), 0)`;

const PROJECT_SQL = `select p."id", p."path", p."visibility", p."archived", p."issues_access_level", p."merge_requests_access_level",
    p."only_allow_merge_if_all_discussions_are_resolved", p."merge_method", n."id" as ns_id, n."kind" as ns_kind, n."owner_id", n."full_path", n."traversal_ids",
    ${memberLevel("$2", `p."id"`)}::int as level
  from "namespaces"."projects" p join "namespaces"."namespaces" n on n."id" = p."namespace_id" where p."id" = $1`;

async function projectAccess(caller, projectId, feature = "issues_access_level") {
  if (!/^\d+$/.test(projectId)) throw notFound("Project");
  const [p] = await q(PROJECT_SQL, [Number(projectId), caller.id]);
  if (!p) throw notFound("Project");
  const level = p.ns_kind === "user" && p.owner_id === caller.id ? Math.max(p.level, ACCESS.OWNER) : p.level;
  const visible = p.visibility === "public" || (p.visibility === "internal" && !caller.external);
  if (!(caller.admin || level >= ACCESS.GUEST || visible)) throw notFound("Project");
  const role = caller.admin ? ACCESS.ADMIN : level;
  if (feature === "issues_access_level" && (p.issues_access_level === "disabled" || (p.issues_access_level === "private" && role < ACCESS.GUEST))) throw notFound("Project");
  const path = `${p.full_path}/${p.path}`;
  return {
    project: { id: p.id, path_with_namespace: path, web_url: `${BASE}/${path}`, visibility: p.visibility, traversal_ids: p.traversal_ids, group_ids: p.ns_kind === "group" ? p.traversal_ids : [], row: p },
    role,
  };
}

// ---- presenters (the services' JSON, field for field) -------------------------------------------

const iso = (d) => (d === null || d === undefined ? null : (d instanceof Date ? d : new Date(d)).toISOString());
const userRef = (u) => ({ id: u.id, username: u.username, name: u.name, state: u.state, locked: false, avatar_url: null, web_url: `${BASE}/${u.username}` });

const srgb = (v) => {
  const n = v / 255;
  return n <= 0.03928 ? n / 12.92 : ((n + 0.055) / 1.055) ** 2.4;
};
const luminance = ([r, g, b]) => 0.2126 * srgb(r) + 0.7152 * srgb(g) + 0.0722 * srgb(b);
function textColor(color) {
  if (!/^#(?:[0-9A-Fa-f]{3}){1,2}$/.test(color)) return "#FFFFFF";
  const d = color.slice(1);
  const rgb = (d.length === 3 ? [...d].map((c) => c + c) : [d.slice(0, 2), d.slice(2, 4), d.slice(4, 6)]).map((x) => Number.parseInt(x, 16));
  const l = luminance(rgb);
  const light = (luminance([255, 255, 255]) + 0.05) / (l + 0.05);
  const dark = (l + 0.05) / (luminance([31, 30, 36]) + 0.05);
  return !(light >= 2.4 || light > dark) ? "#1F1E24" : "#FFFFFF";
}
const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const labelBasic = (l) => ({ id: l.id, name: l.title, color: l.color, text_color: textColor(l.color), description: l.description, description_html: l.description === null ? null : escapeHtml(l.description) });

function milestoneEntity(m, today) {
  return {
    id: m.id,
    iid: m.iid,
    ...(m.project_id !== null ? { project_id: m.project_id } : { group_id: m.group_id }),
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
    due_date: m.due_date,
    start_date: m.start_date,
    expired: m.due_date !== null && m.due_date < today,
    web_url: m.project_path !== null ? `${BASE}/${m.project_path}/-/milestones/${m.iid}` : `${BASE}/groups/${m.group_path}/-/milestones/${m.iid}`,
  };
}

const TASK = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX~])\]\s/gm;
function tasks(description) {
  let count = 0;
  let completed = 0;
  if (description)
    for (const m of description.matchAll(TASK)) {
      if (m[1] === "~") continue;
      count++;
      if (m[1] !== " ") completed++;
    }
  return { count, completed_count: completed };
}
const UNITS = [["mo", 576000], ["w", 144000], ["d", 28800], ["h", 3600], ["m", 60], ["s", 1]];
function human(seconds) {
  if (!seconds) return null;
  let rest = Math.abs(seconds);
  const parts = [];
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      parts.push(`${n}${unit}`);
      rest -= n * size;
    }
  }
  return (seconds < 0 ? "-" : "") + parts.join(" ");
}

/** An issue row as the page, create and update statements return it (links and milestone joined). */
function presentIssue(i, x) {
  const project = x.projects.get(i.project_id);
  const assignees = i.assignee_ids.map((id) => x.users.get(id)).filter(Boolean);
  const labels = [...i.label_titles].sort((a, b) => a.localeCompare(b));
  const t = tasks(i.description);
  const api = `${BASE}/api/v4/projects/${i.project_id}/issues/${i.iid}`;
  const full = `${project?.path_with_namespace ?? ""}#${i.iid}`;
  return {
    id: i.id,
    iid: i.iid,
    project_id: i.project_id,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: iso(i.created_at),
    updated_at: iso(i.updated_at),
    closed_at: iso(i.closed_at),
    closed_by: i.closed_by_id ? (x.users.get(i.closed_by_id) ?? null) : null,
    labels,
    milestone: i.milestone ? milestoneEntity(i.milestone, x.today) : i.ms_id ? milestoneEntity(milestoneOf(i), x.today) : null,
    assignees,
    author: x.users.get(i.author_id) ?? null,
    type: i.issue_type.toUpperCase(),
    assignee: assignees[0] ?? null,
    user_notes_count: i.user_notes_count,
    merge_requests_count: i.merge_requests_count,
    upvotes: i.upvotes,
    downvotes: i.downvotes,
    due_date: i.due_date,
    confidential: i.confidential,
    discussion_locked: i.discussion_locked,
    issue_type: i.issue_type,
    web_url: `${project?.web_url ?? BASE}/-/issues/${i.iid}`,
    time_stats: { time_estimate: i.time_estimate, total_time_spent: i.total_time_spent, human_time_estimate: human(i.time_estimate), human_total_time_spent: human(i.total_time_spent) },
    task_completion_status: t,
    has_tasks: true,
    task_status: `${t.completed_count} of ${t.count} checklist ${t.count === 1 ? "item" : "items"} completed`,
    _links: {
      self: api,
      notes: `${api}/notes`,
      award_emoji: `${api}/award_emoji`,
      project: `${BASE}/api/v4/projects/${i.project_id}`,
      closed_as_duplicate_of: i.duplicated_to_id ? `${BASE}/api/v4/projects/${i.project_id}/issues/${i.duplicated_to_id}` : null,
    },
    references: { short: `#${i.iid}`, relative: x.projectId === i.project_id ? `#${i.iid}` : full, full },
    severity: i.severity,
    ...(x.subscribed !== undefined ? { subscribed: x.subscribed } : {}),
    moved_to_id: i.moved_to_id,
    imported: i.imported,
    imported_from: i.imported_from,
    service_desk_reply_to: null,
    ...(TIER !== "free" ? { weight: i.weight, ...epicOf(i, x), iteration: null, blocking_issues_count: 0 } : {}),
    ...(TIER === "ultimate" ? { health_status: i.health_status } : {}),
  };
}

/** The issue's epic (Premium and up); a confidential one only for Planners and up of the project (x.role, when known). */
function epicOf(i, x) {
  const e = i.epic;
  if (!e || (e.confidential && !(x.role >= ACCESS.PLANNER))) return { epic_iid: null, epic: null };
  return { epic_iid: e.iid, epic: { id: e.id, iid: e.iid, title: e.title, url: `${BASE}/groups/${e.group_path}/-/epics/${e.iid}`, group_id: e.group_id } };
}

const uniq = (xs) => [...new Set(xs.filter((v) => typeof v === "number"))];
const USERS_SQL = `select "id", "username", "name", "state" from "accounts"."users" where "id" = any($1::int[])`;
const userRefs = async (ids) => {
  const u = uniq(ids);
  return new Map((u.length ? await q(USERS_SQL, [u]) : []).map((r) => [r.id, userRef(r)]));
};
const issueUserIds = (rows) => rows.flatMap((r) => [r.author_id, r.closed_by_id, ...r.assignee_ids]);

/**
 * What every issue statement returns: the row, its label titles and assignee ids, its milestone's
 * columns (ms_*, with the paths its web_url needs). `i` is the issues row alias, `ms` the milestone's.
 */
const ISSUE_FIELDS = `i."id", i."project_id", i."iid", i."title", i."description", i."state", i."issue_type", i."author_id", i."closed_by_id", i."closed_at",
    i."due_date", i."confidential", i."discussion_locked", i."moved_to_id", i."duplicated_to_id", i."weight", i."health_status", i."severity",
    i."time_estimate", i."total_time_spent", i."upvotes", i."downvotes", i."user_notes_count", i."merge_requests_count", i."imported", i."imported_from",
    i."created_at", i."updated_at",
    array(select l."title" from "issues"."issue_labels" il join "namespaces"."labels" l on l."id" = il."label_id" where il."issue_id" = i."id") as label_titles,
    array(select a."user_id" from "issues"."issue_assignees" a where a."issue_id" = i."id" order by a."user_id") as assignee_ids,
    ms."id" as ms_id, ms."iid" as ms_iid, ms."project_id" as ms_project_id, ms."group_id" as ms_group_id, ms."title" as ms_title,
    ms."description" as ms_description, ms."state" as ms_state, ms."due_date" as ms_due_date, ms."start_date" as ms_start_date,
    ms."created_at" as ms_created_at, ms."updated_at" as ms_updated_at,
    (select mn."full_path" || '/' || mp."path" from "namespaces"."projects" mp join "namespaces"."namespaces" mn on mn."id" = mp."namespace_id" where mp."id" = ms."project_id") as ms_project_path,
    (select g."full_path" from "namespaces"."namespaces" g where g."id" = ms."group_id") as ms_group_path${TIER !== "free" ? `,
    (select json_build_object('id', e."id", 'iid', e."iid", 'title', e."title", 'group_id', e."group_id", 'confidential', e."confidential", 'group_path', eg."full_path")
      from "issues"."epic_issues" ei join "issues"."epics" e on e."id" = ei."epic_id" join "namespaces"."namespaces" eg on eg."id" = e."group_id" where ei."issue_id" = i."id") as epic` : ""}`;
const WITH_MILESTONE = `left join "namespaces"."milestones" ms on ms."id" = i."milestone_id"`;

/** Confidential issues hidden from callers below Reporter: not them, their own, or assigned to them ($2). */
const CONFIDENTIAL_FILTER = `and (not i."confidential" or i."author_id" = $2 or exists (select 1 from "issues"."issue_assignees" ca where ca."issue_id" = i."id" and ca."user_id" = $2))`;
const milestoneOf = (i) => ({
  id: i.ms_id,
  iid: i.ms_iid,
  project_id: i.ms_project_id,
  group_id: i.ms_group_id,
  title: i.ms_title,
  description: i.ms_description,
  state: i.ms_state,
  due_date: i.ms_due_date,
  start_date: i.ms_start_date,
  created_at: i.ms_created_at,
  updated_at: i.ms_updated_at,
  project_path: i.ms_project_path,
  group_path: i.ms_group_path,
});
const today = () => new Date().toISOString().slice(0, 10);

// ---- pagination (the gateway's headers) -----------------------------------------------------------

function pagination(url) {
  const int = (v, d) => (v === null || v === "" ? d : Number.parseInt(v, 10));
  const page = Math.max(1, int(url.searchParams.get("page"), 1) || 1);
  const perPage = Math.min(100, Math.max(1, int(url.searchParams.get("per_page"), 20) || 20));
  return { page, perPage, offset: (page - 1) * perPage };
}
function pageHeaders(res, url, p, total) {
  const totalPages = Math.max(1, Math.ceil(total / p.perPage));
  const out = p.page > totalPages;
  const next = !out && p.page < totalPages ? p.page + 1 : null;
  const prev = !out && p.page > 1 ? p.page - 1 : null;
  const link = (n) => {
    const u = new URL(url.toString());
    u.searchParams.set("page", String(n));
    u.searchParams.set("per_page", String(p.perPage));
    u.searchParams.sort();
    return u.toString();
  };
  const links = [];
  if (prev) links.push(`<${link(prev)}>; rel="prev"`);
  if (next) links.push(`<${link(next)}>; rel="next"`);
  links.push(`<${link(1)}>; rel="first"`, `<${link(totalPages)}>; rel="last"`);
  res.setHeader("X-Page", String(p.page));
  res.setHeader("X-Per-Page", String(p.perPage));
  res.setHeader("X-Next-Page", next ? String(next) : "");
  res.setHeader("X-Prev-Page", prev ? String(prev) : "");
  res.setHeader("X-Total", String(total));
  res.setHeader("X-Total-Pages", String(totalPages));
  res.setHeader("Link", links.join(", "));
}

// ---- the endpoints ----------------------------------------------------------------------------------

/** The page: $1 project, then (filtered) $2 the caller, then the limit and offset. */
const pageSql = (filtered, offset) => {
  const n = filtered ? 3 : 2;
  return `select ${ISSUE_FIELDS} from "issues"."issues" i ${WITH_MILESTONE}
  where i."project_id" = $1 ${filtered ? CONFIDENTIAL_FILTER : ""} order by i."created_at" desc, i."id" desc limit $${n}${offset ? ` offset $${n + 1}` : ""}`;
};
/** An index serves it: (project_id, …) only, unless the confidentiality filter is needed. */
const countSql = (filtered) => `select count(*) from "issues"."issues" i where i."project_id" = $1 ${filtered ? CONFIDENTIAL_FILTER : ""}`;

/** GET /projects/:id/issues: auth, project and level, then the page and its count, then the users. */
async function projectIssues(caller, id, url, res) {
  const a = await projectAccess(caller, id);
  const p = pagination(url);
  const filtered = a.role < ACCESS.REPORTER;
  const [rows, [{ count }]] = await Promise.all([
    q(pageSql(filtered, p.offset > 0), [a.project.id, ...(filtered ? [caller.id] : []), p.perPage, ...(p.offset ? [p.offset] : [])]),
    q(countSql(filtered), [a.project.id, ...(filtered ? [caller.id] : [])]),
  ]);
  const users = await userRefs(issueUserIds(rows));
  pageHeaders(res, url, p, count);
  const x = { projects: new Map([[a.project.id, a.project]]), users, projectId: a.project.id, role: a.role, today: today() };
  return rows.map((r) => presentIssue(r, x));
}

/** Projects the caller reads issues of, with their level and path: one statement. */
const READABLE_PROJECTS_SQL = `select p."id", p."path", n."full_path", p."issues_access_level",
    greatest(case when n."owner_id" = $1 then ${ACCESS.OWNER} else 0 end, ${memberLevel("$1", `p."id"`)})::int as level
  from "namespaces"."projects" p join "namespaces"."namespaces" n on n."id" = p."namespace_id"
  where p."visibility" = 'public' or (p."visibility" = 'internal' and not $2::boolean) or n."owner_id" = $1 or exists (
    select 1 from "namespaces"."members" m where m."user_id" = $1 and (m."expires_at" is null or m."expires_at" > current_date) and m."access_level" >= ${ACCESS.GUEST}
      and ((m."source_type" = 'Project' and m."source_id" = p."id") or (m."source_type" = 'Namespace' and m."source_id" = any(n."traversal_ids"))))`;
const ALL_PROJECTS_SQL = `select p."id", p."path", n."full_path", p."issues_access_level", ${ACCESS.ADMIN} as level from "namespaces"."projects" p join "namespaces"."namespaces" n on n."id" = p."namespace_id" where $1::int is not null and $2::boolean is not null`;

/** GET /issues?scope=all: the readable projects, the page and count over them, then the users. */
async function allIssues(caller, url, res) {
  const projects = (await q(caller.admin ? ALL_PROJECTS_SQL : READABLE_PROJECTS_SQL, [caller.id, caller.external])).filter(
    (p) => p.issues_access_level !== "disabled" && (p.issues_access_level !== "private" || p.level >= ACCESS.GUEST),
  );
  const ids = projects.map((p) => p.id);
  const trusted = projects.filter((p) => p.level >= ACCESS.REPORTER).map((p) => p.id);
  const p = pagination(url);
  // Confidential rows only where the caller is below Reporter ($3: where they are Reporter+); no
  // predicate at all when they are Reporter+ everywhere, so the count stays on the index.
  const filtered = !caller.admin && trusted.length < ids.length;
  const scope = filtered
    ? `i."project_id" = any($1::int[]) and (not i."confidential" or i."project_id" = any($3::int[]) or i."author_id" = $2
    or exists (select 1 from "issues"."issue_assignees" ca where ca."issue_id" = i."id" and ca."user_id" = $2))`
    : `i."project_id" = any($1::int[])`;
  const values = filtered ? [ids, caller.id, trusted] : [ids];
  const n = values.length + 1;
  const [rows, [{ count }]] = await Promise.all([
    q(`select ${ISSUE_FIELDS} from "issues"."issues" i ${WITH_MILESTONE} where ${scope} order by i."created_at" desc, i."id" desc limit $${n}${p.offset ? ` offset $${n + 1}` : ""}`, [
      ...values,
      p.perPage,
      ...(p.offset ? [p.offset] : []),
    ]),
    q(`select count(*) from "issues"."issues" i where ${scope}`, values),
  ]);
  const users = await userRefs(issueUserIds(rows));
  pageHeaders(res, url, p, count);
  const paths = new Map(projects.map((r) => [r.id, { path_with_namespace: `${r.full_path}/${r.path}`, web_url: `${BASE}/${r.full_path}/${r.path}` }]));
  const x = { projects: paths, users, today: today() };
  return rows.map((r) => presentIssue(r, x));
}

const ISSUE_BY_IID_SQL = `select i."id", i."iid", i."confidential", i."author_id",
    exists (select 1 from "issues"."issue_assignees" a where a."issue_id" = i."id" and a."user_id" = $3) as assigned
  from "issues"."issues" i where i."project_id" = $1 and i."iid" = $2`;

/** The issue by iid in the project the path names, hidden when confidential to this caller. */
async function readableIssue(caller, a, iid) {
  if (!/^\d+$/.test(iid)) throw notFound("Issue");
  const [issue] = await q(ISSUE_BY_IID_SQL, [a.project.id, Number(iid), caller.id]);
  if (!issue || (issue.confidential && !(a.role >= ACCESS.REPORTER || issue.author_id === caller.id || issue.assigned))) throw new HttpError(404, { message: "404 Not found" });
  return issue;
}

const NOTE_FIELDS = `n."id", n."noteable_type", n."noteable_id", n."commit_id", n."project_id", n."author_id", n."body", n."system", n."internal", n."type",
    n."resolvable", n."resolved_at", n."resolved_by_id", n."position", n."imported", n."created_at", n."updated_at"`;
/** An issue's notes but discussion replies' parents ($2: whether internal notes are hidden). */
const NOTES_WHERE = `n."noteable_type" = 'Issue' and n."noteable_id" = $1 and (n."type" is null or n."type" <> 'DiscussionNote') and (not $2::boolean or not n."internal")`;

/** GET /projects/:id/issues/:iid/notes: auth, project and level, the issue, then page and count, then users. */
async function notes(caller, id, iid, url, res) {
  const a = await projectAccess(caller, id);
  const issue = await readableIssue(caller, a, iid);
  const p = pagination(url);
  const hideInternal = a.role < ACCESS.PLANNER;
  const [rows, [{ count }]] = await Promise.all([
    q(`select ${NOTE_FIELDS} from "issues"."notes" n where ${NOTES_WHERE} order by n."created_at" desc, n."id" desc limit $3${p.offset ? " offset $4" : ""}`, [
      issue.id,
      hideInternal,
      p.perPage,
      ...(p.offset ? [p.offset] : []),
    ]),
    q(`select count(*) from "issues"."notes" n where ${NOTES_WHERE}`, [issue.id, hideInternal]),
  ]);
  const u = await userRefs(rows.flatMap((n) => [n.author_id, n.resolved_by_id]));
  pageHeaders(res, url, p, count);
  return rows.map((n) => ({
    id: n.id,
    type: n.type,
    body: n.body,
    attachment: null,
    author: u.get(n.author_id) ?? null,
    created_at: iso(n.created_at),
    updated_at: iso(n.updated_at),
    system: n.system,
    noteable_id: n.noteable_id,
    noteable_type: n.noteable_type,
    project_id: n.project_id,
    commit_id: n.commit_id,
    position: n.position ?? undefined,
    resolvable: n.resolvable,
    ...(n.resolvable ? { resolved: n.resolved_at !== null, resolved_by: n.resolved_by_id ? (u.get(n.resolved_by_id) ?? null) : null, resolved_at: iso(n.resolved_at) } : {}),
    confidential: n.internal,
    internal: n.internal,
    imported: n.imported,
    imported_from: "none",
    noteable_iid: n.noteable_id === issue.id ? issue.iid : null,
    commands_changes: {},
  }));
}

/**
 * What a create names, checked in one statement: the labels by title among the project's and its
 * groups' ($1, $2), the milestone ($4) if it is theirs, the assignees ($5) who can read the project
 * (Guest and up, or anyone signed in when it is not private), with their user refs.
 */
const CREATE_CHECK_SQL = `select
    array(select l."id" from "namespaces"."labels" l where (l."project_id" = $1 or l."group_id" = any($2::int[])) and l."title" = any($3::text[]) order by l."id") as label_ids,
    array(select l."title" from "namespaces"."labels" l where (l."project_id" = $1 or l."group_id" = any($2::int[])) and l."title" = any($3::text[]) order by l."id") as label_titles,
    (select json_build_object('id', ms."id", 'iid', ms."iid", 'project_id', ms."project_id", 'group_id', ms."group_id", 'title', ms."title",
        'description', ms."description", 'state', ms."state", 'due_date', ms."due_date", 'start_date', ms."start_date", 'created_at', ms."created_at", 'updated_at', ms."updated_at",
        'project_path', (select mn."full_path" || '/' || mp."path" from "namespaces"."projects" mp join "namespaces"."namespaces" mn on mn."id" = mp."namespace_id" where mp."id" = ms."project_id"),
        'group_path', (select g."full_path" from "namespaces"."namespaces" g where g."id" = ms."group_id"))
      from "namespaces"."milestones" ms where ms."id" = $4 and (ms."project_id" = $1 or ms."group_id" = any($2::int[]))) as milestone,
    coalesce((select json_agg(json_build_object('id', u."id", 'username', u."username", 'name', u."name", 'state', u."state") order by u."id")
      from "accounts"."users" u join "namespaces"."projects" p on p."id" = $1 join "namespaces"."namespaces" n on n."id" = p."namespace_id"
      where u."id" = any($5::int[]) and u."state" = 'active' and (p."visibility" <> 'private' or u."admin" or n."owner_id" = u."id" or ${memberLevel(`u."id"`, "$1")} >= ${ACCESS.GUEST})), '[]') as assignees`;

const CREATE_LABEL_SQL = `insert into "namespaces"."labels" ("project_id", "title", "color") select $1, t, '#6699cc' from unnest($2::text[]) t returning "id", "title"`;

/**
 * The issue, its iid (allocated in the same statement), links, the followers' subscriptions and
 * the outbox row of its "opened" event: one statement, one commit.
 */
const CREATE_SQL = `with iid as (
    insert into "issues"."internal_ids" ("project_id", "usage", "last_value") values ($1, 'issues', 1)
    on conflict ("project_id", "usage") do update set "last_value" = "issues"."internal_ids"."last_value" + 1 returning "last_value"),
  i as (
    insert into "issues"."issues" ("project_id", "iid", "title", "description", "issue_type", "author_id", "milestone_id", "confidential", "relative_position", "created_at", "updated_at")
    select $1, iid."last_value", $2, $3, 'issue', $4, $5, $6, (select coalesce(max(x."relative_position"), 0) + 1024 from "issues"."issues" x where x."project_id" = $1), $9, $9 from iid
    returning *),
  labels as (insert into "issues"."issue_labels" ("issue_id", "label_id") select i."id", l from i, unnest($7::int[]) l),
  assignees as (insert into "issues"."issue_assignees" ("issue_id", "user_id") select i."id", u from i, unnest($8::int[]) u),
  follows as (insert into "issues"."subscriptions" ("subscribable_type", "subscribable_id", "user_id", "subscribed")
    select 'Issue', i."id", f, true from i, unnest(array_append($8::int[], $4::int)) f group by i."id", f),
  event as (insert into "issues"."outbox" ("event_id", "name", "payload")
    select gen_random_uuid(), 'issues.issue.opened', json_build_object('id', i."id", 'iid', i."iid", 'project_id', i."project_id", 'actor_id', $4::int, 'title', i."title", 'confidential', i."confidential") from i)
  select i.*, null::int as "duplicated_to_id" from i`;

async function createIssue(caller, id, body) {
  const a = await projectAccess(caller, id);
  if (!(a.role >= ACCESS.GUEST || a.project.visibility !== "private")) throw new HttpError(403, { message: "403 Forbidden" });
  const title = typeof body.title === "string" ? body.title.trim() : "";
  if (!title) throw new HttpError(400, { error: "title is missing" });
  const planner = a.role >= ACCESS.PLANNER;
  const names = planner && typeof body.labels === "string" ? [...new Set(body.labels.split(",").map((s) => s.trim()).filter(Boolean))] : [];
  const milestone = planner && Number.isInteger(body.milestone_id) ? body.milestone_id : null;
  const wanted = planner && Array.isArray(body.assignee_ids) ? uniq(body.assignee_ids).filter((n) => n > 0) : [];
  const [check] = await q(CREATE_CHECK_SQL, [a.project.id, a.project.group_ids, names, milestone, wanted]);
  const labelIds = [...check.label_ids];
  const labelTitles = [...check.label_titles];
  const missing = names.filter((n) => !labelTitles.includes(n));
  if (missing.length) for (const l of await q(CREATE_LABEL_SQL, [a.project.id, missing])) labelIds.push(l.id), labelTitles.push(l.title);
  const assignees = TIER === "free" ? check.assignees.slice(0, 1) : check.assignees;
  const description = typeof body.description === "string" ? body.description : null;
  const [row] = await q(CREATE_SQL, [a.project.id, title, description, caller.id, check.milestone?.id ?? null, body.confidential === true, labelIds, assignees.map((u) => u.id), new Date()]);
  const users = new Map([[caller.id, userRef(caller)], ...assignees.map((u) => [u.id, userRef(u)])]);
  const x = { projects: new Map([[a.project.id, a.project]]), users, projectId: a.project.id, role: a.role, subscribed: true, today: today() };
  return presentIssue({ ...row, label_titles: labelTitles, assignee_ids: assignees.map((u) => u.id), milestone: check.milestone }, x);
}

const ISSUE_FULL_SQL = `select ${ISSUE_FIELDS}, i."milestone_id",
    exists (select 1 from "issues"."issue_assignees" a where a."issue_id" = i."id" and a."user_id" = $3) as assigned,
    coalesce((select s."subscribed" from "issues"."subscriptions" s where s."subscribable_type" = 'Issue' and s."subscribable_id" = i."id" and s."user_id" = $3), false) as subscribed
  from "issues"."issues" i ${WITH_MILESTONE} where i."project_id" = $1 and i."iid" = $2`;

/** The state change, its resource state event and the outbox row of its event: one statement. */
const STATE_SQL = `with u as (
    update "issues"."issues" set "state" = $2, "closed_by_id" = $3, "closed_at" = $4, "updated_by_id" = $5, "updated_at" = $6 where "id" = $1 and "state" <> $2
    returning "id", "iid", "project_id", "title", "confidential", "state", "closed_by_id", "closed_at", "updated_at"),
  ev as (insert into "issues"."resource_state_events" ("user_id", "issue_id", "state") select $5, u."id", $7 from u),
  outbox as (insert into "issues"."outbox" ("event_id", "name", "payload")
    select gen_random_uuid(), $8, json_build_object('id', u."id", 'iid', u."iid", 'project_id', u."project_id", 'actor_id', $5::int, 'title', u."title", 'confidential', u."confidential") from u)
  select * from u`;

/** PUT /projects/:id/issues/:iid?state_event=close|reopen. */
async function updateIssue(caller, id, iid, url) {
  const a = await projectAccess(caller, id);
  if (!/^\d+$/.test(iid)) throw notFound("Issue");
  const [issue] = await q(ISSUE_FULL_SQL, [a.project.id, Number(iid), caller.id]);
  if (!issue || (issue.confidential && !(a.role >= ACCESS.REPORTER || issue.author_id === caller.id || issue.assigned))) throw new HttpError(404, { message: "404 Not found" });
  if (!(a.role >= ACCESS.PLANNER || issue.author_id === caller.id || issue.assigned)) throw new HttpError(403, { message: "403 Forbidden" });
  const event = url.searchParams.get("state_event");
  let row = issue;
  const close = event === "close" && issue.state === "opened";
  const reopen = event === "reopen" && issue.state === "closed";
  if (close || reopen) {
    const now = new Date();
    const [changed] = await q(STATE_SQL, close
      ? [issue.id, "closed", caller.id, now, caller.id, now, "closed", "issues.issue.closed"]
      : [issue.id, "opened", null, null, caller.id, now, "reopened", "issues.issue.reopened"]);
    if (changed) row = { ...issue, ...changed };
  }
  const users = await userRefs(issueUserIds([row]));
  const x = { projects: new Map([[a.project.id, a.project]]), users, projectId: a.project.id, role: a.role, subscribed: issue.subscribed, today: today() };
  return presentIssue(row, x);
}

// ---- merge requests: GET /projects/:id/merge_requests ----------------------------------------------
//
// Not the services' statements: what one process owning the whole database would send for the
// same page, in three round trips after the token lookup:
//   1. the project with the caller's level on it (one statement);
//   2. in parallel: the page with everything per row that is a keyed lookup (label, assignee,
//      reviewer ids; approvals with the approvers' levels on the project; merge-request rules;
//      the source branch head; unresolved threads only when the project requires them resolved),
//      its count, and the project's approval configuration (settings, rules with their approvers,
//      protected branches only when a rule is scoped to them);
//   3. in parallel: the users, labels and milestones the page names.

/** Level of a user on the page's project ($2: project id, $3: traversal ids, $4: owner of a personal namespace). */
const levelOf = (user) => `greatest(case when ${user} = $4 then ${ACCESS.OWNER} else 0 end, coalesce((select max(l."access_level") from "namespaces"."members" l where l."user_id" = ${user}
      and (l."expires_at" is null or l."expires_at" > current_date) and ((l."source_type" = 'Project' and l."source_id" = $2) or (l."source_type" = 'Namespace' and l."source_id" = any($3::int[])))), 0))`;
/** Users of rule groups: the groups' direct members from Guest up (namespaces' members.groupUserIds). */
const groupUsers = (table, rule) => `array(select distinct gm."user_id" from "merge_requests"."${table}" g join "namespaces"."members" gm on gm."source_type" = 'Namespace' and gm."source_id" = g."group_id"
      and gm."access_level" >= ${ACCESS.GUEST} and (gm."expires_at" is null or gm."expires_at" > current_date) where g."rule_id" = ${rule})`;

const mrPageSql = (withUnresolved, paged) => `select m."id", m."iid", m."project_id", m."source_project_id", m."title", m."description", m."state", m."draft", m."author_id",
    m."source_branch", m."target_branch", m."sha", m."merge_commit_sha", m."squash_commit_sha", m."merge_user_id", m."merged_at", m."closed_by_id", m."closed_at",
    m."milestone_id", m."discussion_locked", m."squash", m."force_remove_source_branch", m."should_remove_source_branch", m."allow_collaboration",
    m."merge_when_pipeline_succeeds", m."merge_after", m."prepared_at", m."approvals_before_merge", m."time_estimate", m."total_time_spent", m."upvotes", m."downvotes",
    m."user_notes_count", m."imported", m."imported_from", m."created_at", m."updated_at",
    array(select x."label_id" from "merge_requests"."merge_request_labels" x where x."merge_request_id" = m."id") as label_ids,
    array(select x."user_id" from "merge_requests"."merge_request_assignees" x where x."merge_request_id" = m."id" order by x."user_id") as assignee_ids,
    array(select x."user_id" from "merge_requests"."merge_request_reviewers" x where x."merge_request_id" = m."id" order by x."created_at", x."user_id") as reviewer_ids,
    (select json_agg(json_build_object('user_id', a."user_id", 'level', ${levelOf(`a."user_id"`)}) order by a."created_at", a."user_id")
       from "merge_requests"."approvals" a where a."merge_request_id" = m."id") as approvals,
    (select json_agg(json_build_object('rule_type', r."rule_type", 'approvals_required', r."approvals_required",
        'user_ids', array(select u."user_id" from "merge_requests"."approval_merge_request_rule_users" u where u."rule_id" = r."id"),
        'group_user_ids', ${groupUsers("approval_merge_request_rule_groups", `r."id"`)}) order by r."id")
       from "merge_requests"."approval_merge_request_rules" r where r."merge_request_id" = m."id") as own_rules,
    m."source_branch_exists", m."merge_status", m."behind_target"
    ${withUnresolved ? `, (select count(*) from "merge_requests"."notes" t where t."noteable_type" = 'MergeRequest' and t."noteable_id" = m."id" and t."resolvable" and t."resolved_at" is null)::int as unresolved` : ""}
  from "merge_requests"."merge_requests" m where m."project_id" = $1 order by m."created_at" desc, m."id" desc limit $5${paged ? " offset $6" : ""}`;

const MILESTONE_SQL = `select ms."id", ms."iid", ms."project_id", ms."group_id", ms."title", ms."description", ms."state", ms."due_date", ms."start_date", ms."created_at", ms."updated_at",
    (select mn."full_path" || '/' || mp."path" from "namespaces"."projects" mp join "namespaces"."namespaces" mn on mn."id" = mp."namespace_id" where mp."id" = ms."project_id") as project_path,
    (select g."full_path" from "namespaces"."namespaces" g where g."id" = ms."group_id") as group_path
  from "namespaces"."milestones" ms where ms."id" = any($1::int[])`;

const MR_COUNT_SQL = `select count(*) from "merge_requests"."merge_requests" where "project_id" = $1`;

const APPROVAL_CONFIG_SQL = `select (select row_to_json(s) from "merge_requests"."approval_project_settings" s where s."project_id" = $1) as settings,
    (select json_agg(json_build_object('id', r."id", 'rule_type', r."rule_type", 'approvals_required', r."approvals_required",
        'applies_to_all_protected_branches', r."applies_to_all_protected_branches",
        'user_ids', array(select u."user_id" from "merge_requests"."approval_project_rule_users" u where u."rule_id" = r."id"),
        'group_user_ids', ${groupUsers("approval_project_rule_groups", `r."id"`)},
        'protected_branch_ids', array(select b."protected_branch_id" from "merge_requests"."approval_project_rule_protected_branches" b where b."rule_id" = r."id")) order by r."id")
       from "merge_requests"."approval_project_rules" r where r."project_id" = $1) as rules,
    case when exists (select 1 from "merge_requests"."approval_project_rules" r where r."project_id" = $1 and (r."applies_to_all_protected_branches"
        or exists (select 1 from "merge_requests"."approval_project_rule_protected_branches" b where b."rule_id" = r."id")))
      then (select json_agg(json_build_object('id', pb."id", 'name', pb."name") order by pb."id") from "namespaces"."protected_branches" pb where pb."project_id" = $1) end as protected_branches`;

/** `*` wildcards of protected branch names match any run of characters (namespaces' branchMatches). */
const branchMatches = (pattern, branch) =>
  pattern.includes("*") ? new RegExp(`^${pattern.split("*").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*?")}$`).test(branch) : pattern === branch;

/** approvals_left of one merge request: what each applicable rule still needs from approvers that count. */
function approvalsLeft(mr, config, callerIsAdmin, callerId) {
  if (TIER === "free") return 0;
  const s = config.settings;
  let rules;
  if (mr.own_rules) rules = mr.own_rules;
  else {
    const matching = (config.protected_branches ?? []).filter((b) => branchMatches(b.name, mr.target_branch)).map((b) => b.id);
    rules = (config.rules ?? []).filter((r) => (r.applies_to_all_protected_branches ? matching.length > 0 : !r.protected_branch_ids.length || r.protected_branch_ids.some((id) => matching.includes(id))));
  }
  const fallback = mr.approvals_before_merge ?? s?.approvals_before_merge ?? 0;
  if (!rules.length && fallback > 0) rules = [{ rule_type: "any_approver", approvals_required: fallback, user_ids: [], group_user_ids: [] }];
  if (!rules.length) return 0;
  const authorApproval = s?.merge_requests_author_approval ?? false;
  const committersDisabled = s?.merge_requests_disable_committers_approval ?? false;
  // The author stands for the committers (the repository keeps no commit authorship by user).
  const excluded = (u) => (u === mr.author_id && !authorApproval) || (committersDisabled && u === mr.author_id);
  const approvals = (mr.approvals ?? []).filter((a) => !excluded(a.user_id));
  let left = 0;
  for (const r of rules) {
    const counted =
      r.rule_type === "any_approver"
        ? approvals.filter((a) => (callerIsAdmin && a.user_id === callerId ? ACCESS.ADMIN : a.level) >= 30).length
        : approvals.filter((a) => r.user_ids.includes(a.user_id) || r.group_user_ids.includes(a.user_id)).length;
    left += Math.max(0, r.approvals_required - counted);
  }
  return left;
}

function presentMergeRequest(m, x) {
  const assignees = m.assignee_ids.map((id) => x.users.get(id)).filter(Boolean);
  const labels = m.label_ids
    .map((id) => x.labels.get(id))
    .filter((l) => l !== undefined)
    .sort((a, b) => a.localeCompare(b));
  const mergeUser = m.merge_user_id ? (x.users.get(m.merge_user_id) ?? null) : null;
  const exists = m.state === "merged" || m.source_branch_exists;
  const gitStatus = m.state === "merged" ? "can_be_merged" : m.merge_status;
  const needsRebase = (x.project.merge_method === "ff" || x.project.merge_method === "rebase_merge") && m.behind_target;
  const blocking = x.project.only_allow_merge_if_all_discussions_are_resolved ? m.unresolved : 0;
  let detailed;
  if (m.state !== "opened") detailed = "not_open";
  else if (m.draft) detailed = "draft_status";
  else if (!exists) detailed = "commits_status";
  else if (blocking > 0) detailed = "discussions_not_resolved";
  else if (gitStatus === "unchecked") detailed = "unchecked";
  else if (gitStatus === "cannot_be_merged") detailed = "conflict";
  else if (needsRebase) detailed = "need_rebase";
  else if (approvalsLeft(m, x.config, x.callerIsAdmin, x.callerId) > 0) detailed = "not_approved";
  else if (m.merge_after && m.merge_after.getTime() > x.now.getTime()) detailed = "merge_time";
  else detailed = "mergeable";
  const path = x.project.path_with_namespace;
  const short = `!${m.iid}`;
  const web = `${x.project.web_url}/-/merge_requests/${m.iid}`;
  return {
    id: m.id,
    iid: m.iid,
    project_id: m.project_id,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
    merged_by: mergeUser,
    merge_user: mergeUser,
    merged_at: iso(m.merged_at),
    closed_by: m.closed_by_id ? (x.users.get(m.closed_by_id) ?? null) : null,
    closed_at: iso(m.closed_at),
    target_branch: m.target_branch,
    source_branch: m.source_branch,
    user_notes_count: m.user_notes_count,
    upvotes: m.upvotes,
    downvotes: m.downvotes,
    author: x.users.get(m.author_id) ?? null,
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: m.reviewer_ids.map((id) => x.users.get(id)).filter(Boolean),
    source_project_id: m.source_project_id,
    target_project_id: m.project_id,
    labels,
    draft: m.draft,
    imported: m.imported,
    imported_from: m.imported_from,
    work_in_progress: m.draft,
    milestone: m.milestone_id ? (x.milestones.get(m.milestone_id) ?? null) : null,
    merge_when_pipeline_succeeds: m.merge_when_pipeline_succeeds,
    merge_status: exists ? gitStatus : "cannot_be_merged",
    detailed_merge_status: detailed,
    merge_after: iso(m.merge_after),
    sha: m.sha,
    merge_commit_sha: m.merge_commit_sha,
    squash_commit_sha: m.squash_commit_sha,
    discussion_locked: m.discussion_locked,
    should_remove_source_branch: m.should_remove_source_branch,
    force_remove_source_branch: m.force_remove_source_branch,
    prepared_at: iso(m.prepared_at),
    allow_collaboration: m.allow_collaboration,
    allow_maintainer_to_push: m.allow_collaboration,
    reference: short,
    references: { short, relative: short, full: `${path}${short}` },
    web_url: web,
    time_stats: { time_estimate: m.time_estimate, total_time_spent: m.total_time_spent, human_time_estimate: human(m.time_estimate), human_total_time_spent: human(m.total_time_spent) },
    squash: m.squash,
    squash_on_merge: m.squash,
    task_completion_status: tasks(m.description),
    has_conflicts: m.state === "opened" && exists && gitStatus === "cannot_be_merged",
    blocking_discussions_resolved: blocking === 0,
    ...(TIER !== "free" ? { approvals_before_merge: m.approvals_before_merge } : {}),
  };
}

async function projectMergeRequests(caller, id, url, res) {
  const { project, role } = await projectAccess(caller, id, "merge_requests_access_level");
  const p = project.row;
  const feature = p.merge_requests_access_level;
  if (feature === "disabled" || ((p.visibility === "private" || feature === "private") && role < ACCESS.REPORTER)) throw new HttpError(403, { message: "403 Forbidden" });

  const pg = pagination(url);
  const withUnresolved = p.only_allow_merge_if_all_discussions_are_resolved;
  const owner = p.ns_kind === "user" ? p.owner_id : null;
  const [rows, [{ count }], [config]] = await Promise.all([
    q(mrPageSql(withUnresolved, pg.offset > 0), [p.id, p.id, p.traversal_ids, owner, pg.perPage, ...(pg.offset ? [pg.offset] : [])]),
    q(MR_COUNT_SQL, [p.id]),
    TIER !== "free" ? q(APPROVAL_CONFIG_SQL, [p.id]) : [{}],
  ]);
  const userIds = uniq(rows.flatMap((m) => [m.author_id, m.closed_by_id, m.merge_user_id, ...m.assignee_ids, ...m.reviewer_ids]));
  const labelIds = uniq(rows.flatMap((m) => m.label_ids));
  const milestoneIds = uniq(rows.map((m) => m.milestone_id));
  const [u, l, ms] = await Promise.all([
    userRefs(userIds),
    labelIds.length ? q(`select "id", "title" from "namespaces"."labels" where "id" = any($1::int[])`, [labelIds]) : [],
    milestoneIds.length ? q(MILESTONE_SQL, [milestoneIds]) : [],
  ]);
  const today = new Date().toISOString().slice(0, 10);
  const x = {
    project: { path_with_namespace: project.path_with_namespace, web_url: project.web_url, only_allow_merge_if_all_discussions_are_resolved: p.only_allow_merge_if_all_discussions_are_resolved, merge_method: p.merge_method },
    users: u,
    labels: new Map(l.map((r) => [r.id, r.title])),
    milestones: new Map(ms.map((r) => [r.id, milestoneEntity(r, today)])),
    config,
    callerIsAdmin: caller.admin,
    callerId: caller.id,
    now: new Date(),
  };
  pageHeaders(res, url, pg, count);
  return rows.map((m) => presentMergeRequest(m, x));
}

// ---- HTTP -------------------------------------------------------------------------------------------

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {});
      } catch {
        reject(new HttpError(400, { error: "400 Bad request" }));
      }
    });
    req.on("error", reject);
  });

async function route(req, res) {
  const url = new URL(req.url, process.env.EXTERNAL_URL ?? `http://${req.headers.host ?? "localhost"}`);
  const parts = url.pathname.split("/").filter(Boolean); // api v4 …
  if (url.pathname === "/-/readiness" || url.pathname === "/-/liveness") {
    await pool.query("SELECT 1");
    return [200, { status: "ok" }];
  }
  if (parts[0] !== "api" || parts[1] !== "v4") throw new HttpError(404, { error: "404 Not Found" });
  const rest = parts.slice(2).map(decodeURIComponent);
  const caller = await authenticate(req);
  if (req.method === "GET" && rest.length === 1 && rest[0] === "issues") return [200, await allIssues(caller, url, res)];
  if (req.method === "GET" && rest.length === 3 && rest[0] === "projects" && rest[2] === "merge_requests") return [200, await projectMergeRequests(caller, rest[1], url, res)];
  if (rest[0] === "projects" && rest[2] === "issues") {
    if (rest.length === 3 && req.method === "GET") return [200, await projectIssues(caller, rest[1], url, res)];
    if (rest.length === 3 && req.method === "POST") return [201, await createIssue(caller, rest[1], await readBody(req))];
    if (rest.length === 4 && req.method === "PUT") return [200, await updateIssue(caller, rest[1], rest[3], url)];
    if (rest.length === 5 && rest[4] === "notes" && req.method === "GET") return [200, await notes(caller, rest[1], rest[3], url, res)];
  }
  throw new HttpError(404, { error: "404 Not Found" });
}

const server = http.createServer((req, res) => {
  res.setHeader("X-Frame-Options", "SAMEORIGIN");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Request-ID", randomUUID()); // moleculer-web sets one on every answer
  route(req, res).then(
    ([status, body]) => {
      res.statusCode = status;
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(body));
    },
    (err) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) process.stderr.write(`${err.stack}\n`);
      res.statusCode = status;
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(err instanceof HttpError ? err.body : { message: "500 Internal Server Error" }));
    },
  );
});
server.keepAliveTimeout = 65_000;

// WORKERS > 1: that many processes answer on the port (node:cluster hands each new connection to
// the next), each with its own pool — the benchmark measures the baseline at 1 and at one per core.
const cluster = require("node:cluster");
const WORKERS = Number(process.env.WORKERS || 1);
if (cluster.isPrimary && WORKERS > 1) {
  for (let i = 0; i < WORKERS; i++) cluster.fork();
  let stopping = false;
  let exited = 0;
  cluster.on("exit", () => {
    if (!stopping) process.exit(1); // a baseline worker does not die: a broken measurement
    if (++exited === WORKERS) process.exit(0);
  });
  const stopAll = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers)) w.process.kill("SIGTERM");
  };
  process.once("SIGTERM", stopAll);
  process.once("SIGINT", stopAll);
  process.stdout.write(`baseline: ${WORKERS} workers on port ${PORT}\n`);
} else {
  server.listen(PORT, HOST, () => process.stdout.write(`baseline listening on http://${HOST}:${server.address().port}\n`));
  const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
  process.once("SIGTERM", stop);
  process.once("SIGINT", cluster.isWorker ? () => undefined : stop); // a worker stops when its primary says
}
