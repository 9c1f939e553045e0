// The benchmark's ceiling: a plain node:http + pg server answering the benchmark's five requests
// with the SQL the services send (same statements, same round trips in the same order, in
// parallel where the services run them in parallel) and the same JSON and headers — but with no
// framework, no query builder, no validation layer, no bus, no redundant lookups. Only what the
// benchmark sends is handled; anything else is a 404.
//
//   DATABASE_URL=postgres://… PORT=3000 EXTERNAL_URL=http://collab.test node bench/baseline-server.js
//
// What is deliberately skipped compared with the services (see bench/README.md):
//   POST: the second project + membership lookup (labels.resolveForProject re-authorizes), re-reading
//         the label/assignee links just written, and label details again (known from the lookup).
//   PUT:  the assignees' user refs before the update (system notes need them only when
//         assignees change) and re-reading the label/assignee links after it.
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

// ---- SQL (the statements drizzle generates for the services) -----------------------------------

const inList = (from, n) => Array.from({ length: n }, (_, i) => `$${from + i}`).join(", ");
// BASELINE_PREPARED=1 names every statement (server-side prepared, parsed and planned once per
// connection), as the services do for their hottest fixed-shape queries; off by default.
const PREPARED = process.env.BASELINE_PREPARED === "1";
const statementNames = new Map();
const nameOf = (text) => {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `b${createHash("sha1").update(text).digest("hex").slice(0, 16)}`));
  return name;
};
const q = async (text, values) => (await pool.query(PREPARED ? { name: nameOf(text), text, values } : { text, values })).rows;

const USER_COLS = `"id", "username", "email", "name", "state", "admin", "bot", "user_type", "password_digest", "can_create_group", "projects_limit", "external", "private_profile", "bio", "location", "public_email", "website_url", "organization", "job_title", "pronouns", "linkedin", "twitter", "discord", "note", "provisioned_by_group_id", "created_by_id", "confirmed_at", "last_activity_on", "created_at", "updated_at"`;
const TOKEN_SQL = `select t."id" as token_id, t."user_id", t."name" as token_name, t."description", t."token_digest", t."scopes", t."expires_at", t."revoked", t."impersonation", t."last_used_at", t."created_at" as token_created_at, ${USER_COLS
  .split(", ")
  .map((c) => `u.${c}`)
  .join(", ")} from "accounts"."personal_access_tokens" t inner join "accounts"."users" u on u."id" = t."user_id" where t."token_digest" = $1`;
const PROJECT_COLS = `p."id", p."namespace_id", p."name", p."path", p."description", p."visibility", p."default_branch", p."empty_repo", p."creator_id", p."archived", p."topics", p."issues_access_level", p."merge_requests_access_level", p."wiki_access_level", p."builds_access_level", p."snippets_access_level", p."repository_access_level", p."request_access_enabled", p."repository_storage", p."created_at", p."updated_at", p."last_activity_at", n."id" as ns_id, n."kind" as ns_kind, n."name" as ns_name, n."path" as ns_path, n."parent_id", n."owner_id", n."traversal_ids", n."full_path", n."full_name", n."visibility" as ns_visibility, n."description" as ns_description, n."project_creation_level", n."subgroup_creation_level", n."request_access_enabled" as ns_request_access_enabled, n."share_with_group_lock", n."require_two_factor_authentication", n."two_factor_grace_period", n."lfs_enabled", n."emails_enabled", n."mentions_disabled", n."auto_devops_enabled", n."default_branch" as ns_default_branch, n."repository_storage" as ns_repository_storage, n."created_at" as ns_created_at, n."updated_at" as ns_updated_at`;
const PROJECT_SQL = `select ${PROJECT_COLS} from "namespaces"."projects" p inner join "namespaces"."namespaces" n on n."id" = p."namespace_id" where p."id" = $1`;
const MEMBER_SQL = `select "source_type", max("access_level")::int as level from "namespaces"."members" where ("namespaces"."members"."user_id" = $1 and ("namespaces"."members"."expires_at" IS NULL OR "namespaces"."members"."expires_at" > current_date) and (("namespaces"."members"."source_type" = 'Project' AND "namespaces"."members"."source_id" = $2) OR ("namespaces"."members"."source_type" = 'Namespace' AND "namespaces"."members"."source_id" = ANY($3::int[])))) group by "namespaces"."members"."source_type"`;
const ISSUE_COLS = `"id", "project_id", "iid", "title", "description", "state", "issue_type", "author_id", "closed_by_id", "closed_at", "milestone_id", "due_date", "confidential", "discussion_locked", "moved_to_id", "duplicated_to_id", "relative_position", "weight", "health_status", "epic_id", "iteration_id", "severity", "time_estimate", "total_time_spent", "upvotes", "downvotes", "user_notes_count", "merge_requests_count", "imported", "imported_from", "updated_by_id", "created_at", "updated_at"`;
const LABEL_COLS = `"id", "project_id", "group_id", "title", "color", "description", "priority", "created_at", "updated_at"`;
const MILESTONE_SQL = `select m."id", m."iid", m."project_id", m."group_id", m."title", m."description", m."state", m."due_date", m."start_date", m."created_at", m."updated_at", "project_ns"."full_path" || '/' || p."path" as project_path, "group_ns"."full_path" as group_path from "namespaces"."milestones" m left join "namespaces"."projects" p on p."id" = m."project_id" left join "namespaces"."namespaces" "project_ns" on "project_ns"."id" = p."namespace_id" left join "namespaces"."namespaces" "group_ns" on "group_ns"."id" = m."group_id" where m."id" = ANY($1::int[]) order by m."id" desc`;
const NOTE_COLS = `"id", "noteable_type", "noteable_id", "commit_id", "project_id", "author_id", "body", "system", "internal", "type", "discussion_id", "resolvable", "resolved_at", "resolved_by_id", "position", "imported", "updated_by_id", "created_at", "updated_at"`;

// ---- authentication (the gateway's 10 s token cache, accounts.authenticate behind it) -----------

const tokens = new Map();
const TOKEN_TTL_MS = 10_000;

async function authenticate(req) {
  const token = req.headers["private-token"];
  if (typeof token !== "string" || !token) throw new HttpError(401, { message: "401 Unauthorized" });
  const hit = tokens.get(token);
  if (hit && hit.expires > Date.now()) return hit.caller;
  const [row] = await q(TOKEN_SQL, [createHash("sha256").update(token).digest("hex")]);
  if (!row) throw new HttpError(401, { message: "401 Unauthorized" });
  if (row.revoked) throw new HttpError(401, { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." });
  if (row.expires_at && row.expires_at <= new Date().toISOString().slice(0, 10))
    throw new HttpError(401, { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." });
  if (row.state === "blocked" || row.state === "banned") throw new HttpError(403, { message: "403 Forbidden - Your account has been blocked." });
  if (Date.now() - (row.last_used_at?.getTime() ?? 0) > 10 * 60_000)
    await q(`update "accounts"."personal_access_tokens" set "last_used_at" = $1 where "accounts"."personal_access_tokens"."id" = $2`, [new Date(), row.token_id]);
  if (!row.scopes.includes("api") && !(req.method === "GET" && row.scopes.includes("read_api")))
    throw new HttpError(403, { error: "insufficient_scope", error_description: "The request requires higher privileges than provided by the access token.", scope: "api" });
  const caller = { id: row.id, username: row.username, admin: row.admin, external: row.external };
  tokens.set(token, { caller, expires: Date.now() + TOKEN_TTL_MS });
  return caller;
}

// ---- project access (namespaces.access.project) -------------------------------------------------

async function projectAccess(caller, projectId) {
  if (!/^\d+$/.test(projectId)) throw notFound("Project");
  const [p] = await q(PROJECT_SQL, [Number(projectId)]);
  if (!p) throw notFound("Project");
  const rows = await q(MEMBER_SQL, [caller.id, p.id, p.traversal_ids]);
  let level = Math.max(0, ...rows.map((r) => r.level));
  if (p.ns_kind === "user" && p.owner_id === caller.id) level = Math.max(level, ACCESS.OWNER);
  const visible = p.visibility === "public" || (p.visibility === "internal" && !caller.external);
  if (!(caller.admin || level >= ACCESS.GUEST || visible)) throw notFound("Project");
  const role = caller.admin ? ACCESS.ADMIN : level;
  if (p.issues_access_level === "disabled" || (p.issues_access_level === "private" && role < ACCESS.GUEST)) throw notFound("Project");
  const path = `${p.full_path}/${p.path}`;
  return {
    project: { id: p.id, path_with_namespace: path, namespace_id: p.ns_id, group_ids: p.ns_kind === "group" ? p.traversal_ids : [], web_url: `${BASE}/${path}`, visibility: p.visibility, traversal_ids: p.traversal_ids },
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

function presentIssue(i, x) {
  const project = x.projects.get(i.project_id);
  const assignees = (x.assigneeIds.get(i.id) ?? []).map((id) => x.users.get(id)).filter(Boolean);
  const labels = (x.labelIds.get(i.id) ?? [])
    .map((id) => x.labels.get(id))
    .filter(Boolean)
    .sort((a, b) => a.name.localeCompare(b.name));
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
    labels: labels.map((l) => l.name),
    milestone: i.milestone_id ? (x.milestones.get(i.milestone_id) ?? null) : null,
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
    ...(TIER !== "free" ? { weight: i.weight, epic_iid: null, epic: null, iteration: null, blocking_issues_count: 0 } : {}),
    ...(TIER === "ultimate" ? { health_status: i.health_status } : {}),
  };
}

const uniq = (xs) => [...new Set(xs.filter((v) => typeof v === "number"))];
const users = async (ids) => {
  const u = uniq(ids);
  return u.length ? q(`select ${USER_COLS} from "accounts"."users" where "accounts"."users"."id" = ANY($1::int[])`, [u]) : [];
};
const labelsById = async (ids) => {
  const u = uniq(ids);
  return u.length ? q(`select ${LABEL_COLS} from "namespaces"."labels" where "namespaces"."labels"."id" = ANY($1::int[]) order by "namespaces"."labels"."title" asc, "namespaces"."labels"."id" asc`, [u]) : [];
};
const milestonesById = async (ids) => {
  const u = uniq(ids);
  return u.length ? q(MILESTONE_SQL, [u]) : [];
};
const byId = (rows, f) => new Map(rows.map((r) => [r.id, f(r)]));
function group(rows, key, value) {
  const m = new Map();
  for (const r of rows) m.set(r[key], [...(m.get(r[key]) ?? []), r[value]]);
  return m;
}

/** A page of issues: links, then users / labels / milestones (/ projects) in parallel. */
async function presentPage(rows, { knownProjects = [], projectId, subscribed, links }) {
  const ids = rows.map((r) => r.id);
  let labelIds, assigneeIds;
  if (links) ({ labelIds, assigneeIds } = links);
  else if (ids.length) {
    const [l, a] = await Promise.all([
      q(`select "issue_id", "label_id" from "issues"."issue_labels" where "issues"."issue_labels"."issue_id" = ANY($1::int[])`, [ids]),
      q(`select "issue_id", "user_id" from "issues"."issue_assignees" where "issues"."issue_assignees"."issue_id" = ANY($1::int[])`, [ids]),
    ]);
    labelIds = group(l, "issue_id", "label_id");
    assigneeIds = group(a, "issue_id", "user_id");
  } else {
    labelIds = new Map();
    assigneeIds = new Map();
  }
  const known = new Set(knownProjects.map((p) => p.id));
  const missing = uniq(rows.map((r) => r.project_id).filter((id) => !known.has(id)));
  const today = new Date().toISOString().slice(0, 10);
  const [u, l, m, p] = await Promise.all([
    users(rows.flatMap((r) => [r.author_id, r.closed_by_id, ...(assigneeIds.get(r.id) ?? [])])),
    labelsById([...labelIds.values()].flat()),
    milestonesById(rows.map((r) => r.milestone_id)),
    missing.length ? q(`select ${PROJECT_COLS} from "namespaces"."projects" p inner join "namespaces"."namespaces" n on n."id" = p."namespace_id" where p."id" in (${inList(1, missing.length)})`, missing) : [],
  ]);
  const projects = new Map(knownProjects.map((x) => [x.id, x]));
  for (const row of p) projects.set(row.id, { id: row.id, path_with_namespace: `${row.full_path}/${row.path}`, web_url: `${BASE}/${row.full_path}/${row.path}` });
  const x = { projects, users: byId(u, userRef), labels: byId(l, labelBasic), milestones: byId(m, (r) => milestoneEntity(r, today)), labelIds, assigneeIds, projectId, subscribed };
  return rows.map((r) => presentIssue(r, x));
}

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

// ---- the five endpoints ---------------------------------------------------------------------------

/** WHERE of an issue list: projects, then confidentiality (as the issues finder builds it). */
function listWhere(caller, projects) {
  const values = [];
  const param = (v) => (values.push(v), `$${values.length}`);
  const parts = [];
  if (projects !== null) {
    const ids = projects.filter((p) => p.issues_access_level !== "disabled" && (p.issues_access_level !== "private" || p.access_level >= ACCESS.GUEST)).map((p) => p.id);
    parts.push(ids.length ? `"issues"."issues"."project_id" in (${ids.map(param).join(", ")})` : "FALSE");
  }
  if (!caller.admin) {
    const trusted = (projects ?? []).filter((p) => p.access_level >= ACCESS.REPORTER).map((p) => p.id);
    const or = [`"issues"."issues"."confidential" = ${param(false)}`];
    if (trusted.length) or.push(`"issues"."issues"."project_id" in (${trusted.map(param).join(", ")})`);
    or.push(`"issues"."issues"."author_id" = ${param(caller.id)}`);
    or.push(`EXISTS (SELECT 1 FROM issues.issue_assignees a WHERE a.issue_id = "issues"."issues"."id" AND a.user_id = ANY(${param([caller.id])}::int[]))`);
    parts.push(`(${or.join(" or ")})`);
  }
  return { where: parts.length ? `(${parts.join(" and ")})` : "TRUE", values };
}

async function listIssues(caller, projects, url, res, present) {
  const p = pagination(url);
  const { where, values } = listWhere(caller, projects);
  const limit = `limit $${values.length + 1}${p.offset ? ` offset $${values.length + 2}` : ""}`;
  const [rows, [{ count }]] = await Promise.all([
    q(`select ${ISSUE_COLS} from "issues"."issues" where ${where} order by "issues"."issues"."created_at" desc, "issues"."issues"."id" desc ${limit}`, [...values, p.perPage, ...(p.offset ? [p.offset] : [])]),
    q(`select count(*) from "issues"."issues" where ${where}`, values),
  ]);
  pageHeaders(res, url, p, count);
  return present(rows);
}

async function projectIssues(caller, id, url, res) {
  const a = await projectAccess(caller, id);
  const projects = [{ id: a.project.id, access_level: a.role, issues_access_level: "enabled" }];
  return listIssues(caller, projects, url, res, (rows) => presentPage(rows, { knownProjects: [a.project], projectId: a.project.id }));
}

async function allIssues(caller, url, res) {
  let projects = null;
  if (!caller.admin) {
    const rows = await q(
      `select p."id", GREATEST(
            CASE WHEN n."owner_id" = $1 THEN $2 ELSE 0 END,
            COALESCE((SELECT max(m.access_level) FROM namespaces.members m WHERE m.user_id = $3
              AND (m.expires_at IS NULL OR m.expires_at > current_date)
              AND ((m.source_type = 'Project' AND m.source_id = p."id") OR (m.source_type = 'Namespace' AND m.source_id = ANY(n."traversal_ids")))), 0))::int as level, p."issues_access_level", p."visibility", p."archived"
       from "namespaces"."projects" p inner join "namespaces"."namespaces" n on n."id" = p."namespace_id"
       where (p."visibility" = 'public' OR ${caller.external ? "FALSE" : `p."visibility" = 'internal'`} OR n."owner_id" = $4 OR EXISTS (
         SELECT 1 FROM "namespaces"."members" m WHERE m.user_id = $5 AND (m.expires_at IS NULL OR m.expires_at > current_date)
           AND m.access_level >= $6
           AND ((m.source_type = 'Project' AND m.source_id = p."id") OR (m.source_type = 'Namespace' AND m.source_id = ANY(n."traversal_ids")))))`,
      [caller.id, ACCESS.OWNER, caller.id, caller.id, caller.id, ACCESS.GUEST],
    );
    projects = rows.map((r) => ({ id: r.id, access_level: r.level, issues_access_level: r.issues_access_level }));
  }
  return listIssues(caller, projects, url, res, (rows) => presentPage(rows, {}));
}

/** loadIssue: project access, the issue by iid, its assignees, read permission. */
async function loadIssue(caller, id, iid) {
  const a = await projectAccess(caller, id);
  if (!/^\d+$/.test(iid)) throw notFound("Issue");
  const [issue] = await q(`select ${ISSUE_COLS} from "issues"."issues" where ("issues"."issues"."project_id" = $1 and "issues"."issues"."iid" = $2)`, [a.project.id, Number(iid)]);
  if (!issue) throw new HttpError(404, { message: "404 Not found" });
  const assigneeIds = (await q(`select "user_id" from "issues"."issue_assignees" where "issues"."issue_assignees"."issue_id" = $1`, [issue.id])).map((r) => r.user_id);
  const assigned = assigneeIds.includes(caller.id);
  if (issue.confidential && !(a.role >= ACCESS.REPORTER || issue.author_id === caller.id || assigned)) throw new HttpError(404, { message: "404 Not found" });
  return { a, issue, assigneeIds, assigned };
}

async function notes(caller, id, iid, url, res) {
  const { a, issue } = await loadIssue(caller, id, iid);
  const p = pagination(url);
  const values = ["Issue", issue.id, "DiscussionNote"];
  let where = `(("issues"."notes"."noteable_type" = $1 and "issues"."notes"."noteable_id" = $2) and ("issues"."notes"."type" IS NULL or "issues"."notes"."type" <> $3))`;
  if (a.role < ACCESS.PLANNER) where = `(${where} and "issues"."notes"."internal" = $${values.push(false)})`;
  const limit = `limit $${values.length + 1}${p.offset ? ` offset $${values.length + 2}` : ""}`;
  const [rows, [{ count }]] = await Promise.all([
    q(`select ${NOTE_COLS} from "issues"."notes" where ${where} order by "issues"."notes"."created_at" desc, "issues"."notes"."id" desc ${limit}`, [...values, p.perPage, ...(p.offset ? [p.offset] : [])]),
    q(`select count(*) from "issues"."notes" where ${where}`, values),
  ]);
  const u = byId(await users(rows.flatMap((n) => [n.author_id, n.resolved_by_id])), userRef);
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

async function createIssue(caller, id, body) {
  const a = await projectAccess(caller, id);
  if (!(a.role >= ACCESS.GUEST || a.project.visibility !== "private")) throw new HttpError(403, { message: "403 Forbidden" });
  const title = typeof body.title === "string" ? body.title.trim() : "";
  if (!title) throw new HttpError(400, { error: "title is missing" });
  const names = a.role >= ACCESS.PLANNER && typeof body.labels === "string" ? [...new Set(body.labels.split(",").map((s) => s.trim()).filter(Boolean))] : [];
  let labels = [];
  if (names.length) {
    const groups = a.project.group_ids;
    labels = await q(
      `select ${LABEL_COLS} from "namespaces"."labels" where (("namespaces"."labels"."project_id" in ($1)${groups.length ? ` or "namespaces"."labels"."group_id" in (${inList(2, groups.length)})` : ""}) and "namespaces"."labels"."title" in (${inList(2 + groups.length, names.length)})) order by "namespaces"."labels"."title" asc, "namespaces"."labels"."id" asc`,
      [a.project.id, ...groups, ...names],
    );
  }
  const client = await pool.connect();
  let issue;
  try {
    await client.query("begin");
    const {
      rows: [{ last_value: iid }],
    } = await client.query(
      `insert into "issues"."internal_ids" ("project_id", "usage", "last_value") values ($1, $2, $3) on conflict ("project_id","usage") do update set "last_value" = "issues"."internal_ids"."last_value" + 1 returning "last_value"`,
      [a.project.id, "issues", 1],
    );
    const now = new Date();
    ({
      rows: [issue],
    } = await client.query(
      `insert into "issues"."issues" ("project_id", "iid", "title", "description", "issue_type", "author_id", "milestone_id", "due_date", "confidential", "discussion_locked", "relative_position", "weight", "health_status", "epic_id", "iteration_id", "created_at", "updated_at")
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, (SELECT COALESCE(max(relative_position), 0) + 1024 FROM issues.issues WHERE project_id = $11), $12, $13, $14, $15, $16, $17) returning ${ISSUE_COLS}`,
      [a.project.id, iid, title, typeof body.description === "string" ? body.description : null, "issue", caller.id, null, null, body.confidential === true, null, a.project.id, null, null, null, null, now, now],
    ));
    if (labels.length) {
      const ids = [...new Set(labels.map((l) => l.id))];
      await client.query(`insert into "issues"."issue_labels" ("issue_id", "label_id") values ${ids.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(", ")}`, ids.flatMap((l) => [issue.id, l]));
    }
    await client.query(`insert into "issues"."subscriptions" ("subscribable_type", "subscribable_id", "user_id", "subscribed") values ($1, $2, $3, $4) on conflict do nothing`, ["Issue", issue.id, caller.id, true]);
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  const links = { labelIds: new Map([[issue.id, labels.map((l) => l.id)]]), assigneeIds: new Map() };
  // Label details are known from the lookup: only the author's ref is read back.
  const u = await users([issue.author_id]);
  const x = { projects: new Map([[a.project.id, a.project]]), users: byId(u, userRef), labels: byId(labels, labelBasic), milestones: new Map(), ...links, projectId: a.project.id, subscribed: true };
  return presentIssue(issue, x);
}

async function updateIssue(caller, id, iid, url) {
  const { a, issue, assigneeIds, assigned } = await loadIssue(caller, id, iid);
  if (!(a.role >= ACCESS.PLANNER || issue.author_id === caller.id || assigned)) throw new HttpError(403, { message: "403 Forbidden" });
  const labelIds = (await q(`select "label_id" from "issues"."issue_labels" where "issues"."issue_labels"."issue_id" = $1`, [issue.id])).map((r) => r.label_id);
  const event = url.searchParams.get("state_event");
  let row = issue;
  const close = event === "close" && issue.state === "opened";
  const reopen = event === "reopen" && issue.state === "closed";
  const client = await pool.connect();
  try {
    await client.query("begin");
    if (close || reopen) {
      await client.query(`insert into "issues"."resource_state_events" ("user_id", "issue_id", "state") values ($1, $2, $3)`, [caller.id, issue.id, close ? "closed" : "reopened"]);
      const now = new Date();
      ({
        rows: [row],
      } = await client.query(
        `update "issues"."issues" set "state" = $1, "closed_by_id" = $2, "closed_at" = $3, "updated_by_id" = $4, "updated_at" = $5 where "issues"."issues"."id" = $6 returning ${ISSUE_COLS}`,
        close ? ["closed", caller.id, now, caller.id, now, issue.id] : ["opened", null, null, caller.id, now, issue.id],
      ));
    }
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  const [sub] = await q(
    `select "subscribed" from "issues"."subscriptions" where ("issues"."subscriptions"."subscribable_type" = $1 and "issues"."subscriptions"."subscribable_id" = $2 and "issues"."subscriptions"."user_id" = $3)`,
    ["Issue", row.id, caller.id],
  );
  const links = { labelIds: new Map([[row.id, labelIds]]), assigneeIds: new Map([[row.id, assigneeIds]]) };
  return (await presentPage([row], { knownProjects: [a.project], projectId: a.project.id, subscribed: sub?.subscribed ?? false, links }))[0];
}

// ---- merge requests: GET /projects/:id/merge_requests ----------------------------------------------
//
// Not the services' statements: what one process owning the whole database would send for the
// same page, in three round trips (the token lookup is cached):
//   1. the project with the caller's level on it (one statement);
//   2. in parallel: the page with everything per row that is a keyed lookup (label, assignee,
//      reviewer ids; approvals with the approvers' levels on the project; merge-request rules;
//      the source branch head; unresolved threads only when the project requires them resolved),
//      its count, and the project's approval configuration (settings, rules with their approvers,
//      protected branches only when a rule is scoped to them);
//   3. in parallel: the users, labels and milestones the page names.

const MR_PROJECT_SQL = `select p."id", p."path", p."visibility", p."merge_requests_access_level", p."only_allow_merge_if_all_discussions_are_resolved",
    n."kind" as ns_kind, n."owner_id", n."full_path", n."traversal_ids",
    coalesce((select max(m."access_level") from "namespaces"."members" m where m."user_id" = $2 and (m."expires_at" is null or m."expires_at" > current_date)
      and ((m."source_type" = 'Project' and m."source_id" = p."id") or (m."source_type" = 'Namespace' and m."source_id" = any(n."traversal_ids")))), 0)::int as level
  from "namespaces"."projects" p join "namespaces"."namespaces" n on n."id" = p."namespace_id" where p."id" = $1`;

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
    case when m."state" <> 'merged' then (select b."sha" from "namespaces"."repository_refs" b where b."project_id" = m."source_project_id" and b."kind" = 'branch' and b."name" = m."source_branch") end as head
    ${withUnresolved ? `, (select count(*) from "merge_requests"."notes" t where t."noteable_type" = 'MergeRequest' and t."noteable_id" = m."id" and t."resolvable" and t."resolved_at" is null)::int as unresolved` : ""}
  from "merge_requests"."merge_requests" m where m."project_id" = $1 order by m."created_at" desc, m."id" desc limit $5${paged ? " offset $6" : ""}`;

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
  const exists = m.state === "merged" || (m.head !== null && m.head !== undefined);
  const blocking = x.project.only_allow_merge_if_all_discussions_are_resolved ? m.unresolved : 0;
  let detailed;
  if (m.state !== "opened") detailed = "not_open";
  else if (m.draft) detailed = "draft_status";
  else if (!exists) detailed = "commits_status";
  else if (blocking > 0) detailed = "discussions_not_resolved";
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
    merge_status: exists ? "can_be_merged" : "cannot_be_merged",
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
    has_conflicts: false,
    blocking_discussions_resolved: blocking === 0,
    ...(TIER !== "free" ? { approvals_before_merge: m.approvals_before_merge } : {}),
  };
}

async function projectMergeRequests(caller, id, url, res) {
  if (!/^\d+$/.test(id)) throw notFound("Project");
  const [p] = await q(MR_PROJECT_SQL, [Number(id), caller.id]);
  if (!p) throw notFound("Project");
  const level = p.ns_kind === "user" && p.owner_id === caller.id ? Math.max(p.level, ACCESS.OWNER) : p.level;
  const visible = p.visibility === "public" || (p.visibility === "internal" && !caller.external);
  if (!(caller.admin || level >= ACCESS.GUEST || visible)) throw notFound("Project");
  const role = caller.admin ? ACCESS.ADMIN : level;
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
    userIds.length ? q(`select "id", "username", "name", "state" from "accounts"."users" where "id" = any($1::int[])`, [userIds]) : [],
    labelIds.length ? q(`select "id", "title" from "namespaces"."labels" where "id" = any($1::int[])`, [labelIds]) : [],
    milestoneIds.length ? q(MILESTONE_SQL, [milestoneIds]) : [],
  ]);
  const today = new Date().toISOString().slice(0, 10);
  const path = `${p.full_path}/${p.path}`;
  const x = {
    project: { path_with_namespace: path, web_url: `${BASE}/${path}`, only_allow_merge_if_all_discussions_are_resolved: p.only_allow_merge_if_all_discussions_are_resolved },
    users: byId(u, userRef),
    labels: new Map(l.map((r) => [r.id, r.title])),
    milestones: byId(ms, (r) => milestoneEntity(r, today)),
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
server.listen(PORT, HOST, () => process.stdout.write(`baseline listening on http://${HOST}:${server.address().port}\n`));

const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
