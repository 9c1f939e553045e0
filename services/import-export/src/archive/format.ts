import { readTarGz, TarError, writeTarGz, type TarEntry } from "./tar";

/**
 * The group export archive, laid out as GitLab's NDJSON group exports (Gitlab::ImportExport,
 * version 0.2.4), so the two read each other's labels, milestones, members and subgroups:
 *
 *   VERSION                               "0.2.4"
 *   GITLAB_VERSION, GITLAB_REVISION       the exporting API's version
 *   tree/groups/_all.ndjson               one group id per line, the exported group first
 *   tree/groups/<id>.json                 the group's attributes (parent_id links the tree)
 *   tree/groups/<id>/labels.ndjson        one relation record per line
 *   tree/groups/<id>/milestones.ndjson
 *   tree/groups/<id>/members.ndjson
 *
 * Attributes use GitLab's encodings (visibility_level 0/10/20, project_creation_level and
 * subgroup_creation_level as integers, emails_disabled); the reader also accepts this API's strings.
 */
export const EXPORT_VERSION = "0.2.4";
export const GITLAB_VERSION = "18.6.0";
export const GITLAB_REVISION = "collab";

export type Visibility = "private" | "internal" | "public";

/** Group settings an archive carries (this API's vocabulary). */
export interface GroupAttributes {
  name: string;
  path: string;
  description: string;
  visibility: Visibility;
  project_creation_level: string;
  subgroup_creation_level: string;
  request_access_enabled: boolean;
  share_with_group_lock: boolean;
  require_two_factor_authentication: boolean;
  two_factor_grace_period: number;
  lfs_enabled: boolean;
  emails_enabled: boolean;
  mentions_disabled: boolean;
  auto_devops_enabled: boolean | null;
  default_branch: string | null;
}

export interface ExportLabel {
  id: number;
  title: string;
  color: string;
  description: string | null;
  created_at: string | null;
  updated_at: string | null;
}

export interface ExportMilestone {
  id: number;
  iid: number;
  title: string;
  description: string | null;
  state: string;
  due_date: string | null;
  start_date: string | null;
  created_at: string | null;
  updated_at: string | null;
}

export interface ExportMember {
  id: number;
  user_id: number;
  username: string;
  access_level: number;
  expires_at: string | null;
  created_at: string | null;
}

export interface ExportGroup {
  id: number;
  parent_id: number | null;
  created_at: string | null;
  updated_at: string | null;
  attributes: GroupAttributes;
  labels: ExportLabel[];
  milestones: ExportMilestone[];
  members: ExportMember[];
}

// ---- GitLab encodings ----------------------------------------------------------------------------

const VISIBILITY_LEVELS: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };
const PROJECT_CREATION_LEVELS: Record<string, number> = { noone: 0, maintainer: 1, developer: 2, administrator: 3, owner: 4 };
const SUBGROUP_CREATION_LEVELS: Record<string, number> = { owner: 0, maintainer: 1 };
const byValue = (map: Record<string, number>, value: unknown) => Object.keys(map).find((k) => map[k] === value);

// ---- writing -------------------------------------------------------------------------------------

const ndjson = (rows: unknown[]) => Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(""), "utf8");

function groupJson(g: ExportGroup) {
  const a = g.attributes;
  return {
    id: g.id,
    name: a.name,
    path: a.path,
    description: a.description,
    parent_id: g.parent_id,
    visibility_level: VISIBILITY_LEVELS[a.visibility],
    project_creation_level: PROJECT_CREATION_LEVELS[a.project_creation_level] ?? PROJECT_CREATION_LEVELS.developer,
    subgroup_creation_level: SUBGROUP_CREATION_LEVELS[a.subgroup_creation_level] ?? SUBGROUP_CREATION_LEVELS.maintainer,
    request_access_enabled: a.request_access_enabled,
    share_with_group_lock: a.share_with_group_lock,
    require_two_factor_authentication: a.require_two_factor_authentication,
    two_factor_grace_period: a.two_factor_grace_period,
    lfs_enabled: a.lfs_enabled,
    emails_disabled: !a.emails_enabled,
    mentions_disabled: a.mentions_disabled,
    auto_devops_enabled: a.auto_devops_enabled,
    default_branch: a.default_branch,
    created_at: g.created_at,
    updated_at: g.updated_at,
  };
}

const labelJson = (g: ExportGroup, l: ExportLabel) => ({
  id: l.id,
  title: l.title,
  color: l.color,
  project_id: null,
  group_id: g.id,
  description: l.description,
  type: "GroupLabel",
  template: false,
  priorities: [],
  created_at: l.created_at,
  updated_at: l.updated_at,
});

const milestoneJson = (g: ExportGroup, m: ExportMilestone) => ({
  id: m.id,
  iid: m.iid,
  title: m.title,
  project_id: null,
  group_id: g.id,
  description: m.description,
  state: m.state,
  due_date: m.due_date,
  start_date: m.start_date,
  created_at: m.created_at,
  updated_at: m.updated_at,
  events: [],
});

const memberJson = (g: ExportGroup, m: ExportMember) => ({
  id: m.id,
  access_level: m.access_level,
  source_id: g.id,
  source_type: "Namespace",
  user_id: m.user_id,
  notification_level: 3,
  expires_at: m.expires_at,
  created_at: m.created_at,
  user: { id: m.user_id, public_email: null, username: m.username },
});

/** The tar.gz of a group tree, the exported group first. */
export function buildArchive(groups: readonly ExportGroup[], mtime = new Date()): Buffer {
  if (!groups.length) throw new Error("nothing to export");
  const file = (name: string, data: Buffer | string): TarEntry => ({ name, data: typeof data === "string" ? Buffer.from(data, "utf8") : data, mtime });
  const dir = (name: string): TarEntry => ({ name, data: Buffer.alloc(0), type: "directory", mtime });
  const entries: TarEntry[] = [
    file("VERSION", EXPORT_VERSION),
    file("GITLAB_VERSION", GITLAB_VERSION),
    file("GITLAB_REVISION", GITLAB_REVISION),
    dir("tree"),
    dir("tree/groups"),
    file("tree/groups/_all.ndjson", ndjson(groups.map((g) => g.id))),
  ];
  for (const g of groups) {
    entries.push(file(`tree/groups/${g.id}.json`, JSON.stringify(groupJson(g))));
    entries.push(dir(`tree/groups/${g.id}`));
    entries.push(file(`tree/groups/${g.id}/labels.ndjson`, ndjson(g.labels.map((l) => labelJson(g, l)))));
    entries.push(file(`tree/groups/${g.id}/milestones.ndjson`, ndjson(g.milestones.map((m) => milestoneJson(g, m)))));
    entries.push(file(`tree/groups/${g.id}/members.ndjson`, ndjson(g.members.map((m) => memberJson(g, m)))));
  }
  return writeTarGz(entries);
}

/** GitLab's file name: `<%Y-%m-%d_%H-%M-%3N>_<full_path with / as _>_export.tar.gz` (UTC). */
export function exportFilename(fullPath: string, at = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const stamp = `${at.getUTCFullYear()}-${p(at.getUTCMonth() + 1)}-${p(at.getUTCDate())}_${p(at.getUTCHours())}-${p(at.getUTCMinutes())}-${p(at.getUTCMilliseconds(), 3)}`;
  return `${stamp}_${fullPath.replace(/\//g, "_")}_export.tar.gz`;
}

// ---- reading -------------------------------------------------------------------------------------

/** Why an uploaded archive cannot be imported (the import fails; the created group stays). */
export class ArchiveError extends Error {}

export interface ImportLabel {
  title: string;
  color: string;
  description: string | null;
}

export interface ImportMilestone {
  title: string;
  description: string | null;
  state: "active" | "closed";
  due_date: string | null;
  start_date: string | null;
}

export interface ImportMember {
  username: string;
  access_level: number;
  expires_at: string | null;
}

export interface ImportGroup {
  /** The id in the archive. */
  id: number;
  /** The archive id of the parent; null for the imported (root) group. */
  parent_id: number | null;
  attributes: Partial<GroupAttributes>;
  labels: ImportLabel[];
  milestones: ImportMilestone[];
  members: ImportMember[];
}

export interface ReadLimits {
  /** Bytes the archive may inflate to. */
  maxBytes: number;
  maxEntries?: number;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === "number" && Number.isInteger(v) ? v : undefined);
const date = (v: unknown): string | null => (typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null);

function attributesOf(raw: Record<string, unknown>): Partial<GroupAttributes> {
  const a: Partial<GroupAttributes> = {};
  if (str(raw.name) !== undefined) a.name = str(raw.name);
  if (str(raw.path) !== undefined) a.path = str(raw.path);
  if (typeof raw.description === "string") a.description = raw.description;
  const visibility = typeof raw.visibility === "string" ? raw.visibility : byValue(VISIBILITY_LEVELS, raw.visibility_level);
  if (visibility === "private" || visibility === "internal" || visibility === "public") a.visibility = visibility;
  const projectLevel = typeof raw.project_creation_level === "string" ? raw.project_creation_level : byValue(PROJECT_CREATION_LEVELS, raw.project_creation_level);
  if (projectLevel && projectLevel in PROJECT_CREATION_LEVELS) a.project_creation_level = projectLevel;
  const subgroupLevel = typeof raw.subgroup_creation_level === "string" ? raw.subgroup_creation_level : byValue(SUBGROUP_CREATION_LEVELS, raw.subgroup_creation_level);
  if (subgroupLevel && subgroupLevel in SUBGROUP_CREATION_LEVELS) a.subgroup_creation_level = subgroupLevel;
  for (const key of ["request_access_enabled", "share_with_group_lock", "require_two_factor_authentication", "lfs_enabled", "mentions_disabled"] as const) {
    const v = bool(raw[key]);
    if (v !== undefined) a[key] = v;
  }
  const grace = int(raw.two_factor_grace_period);
  if (grace !== undefined && grace >= 0) a.two_factor_grace_period = grace;
  if (bool(raw.emails_enabled) !== undefined) a.emails_enabled = bool(raw.emails_enabled);
  else if (bool(raw.emails_disabled) !== undefined) a.emails_enabled = !bool(raw.emails_disabled);
  if (raw.auto_devops_enabled === null || bool(raw.auto_devops_enabled) !== undefined) a.auto_devops_enabled = raw.auto_devops_enabled as boolean | null;
  const branch = str(raw.default_branch) ?? str(raw.default_branch_name);
  if (branch) a.default_branch = branch;
  return a;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ArchiveError(`Invalid JSON in ${where}`);
  }
}

function parseNdjson(text: string | undefined, where: string): unknown[] {
  if (text === undefined) return [];
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .map((l, i) => parseJson(l, `${where}:${i + 1}`));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function labelsOf(rows: unknown[]): ImportLabel[] {
  return rows.filter(isObject).flatMap((r) => {
    const title = str(r.title);
    if (!title) return [];
    return [{ title, color: str(r.color) ?? "#6699cc", description: str(r.description) ?? null }];
  });
}

function milestonesOf(rows: unknown[]): ImportMilestone[] {
  return rows.filter(isObject).flatMap((r) => {
    const title = str(r.title);
    if (!title) return [];
    return [{ title, description: str(r.description) ?? null, state: r.state === "closed" ? ("closed" as const) : ("active" as const), due_date: date(r.due_date), start_date: date(r.start_date) }];
  });
}

function membersOf(rows: unknown[]): ImportMember[] {
  return rows.filter(isObject).flatMap((r) => {
    const user = isObject(r.user) ? r.user : {};
    const username = str(user.username) ?? str(r.username);
    const level = int(r.access_level);
    if (!username || level === undefined) return [];
    return [{ username, access_level: level, expires_at: date(r.expires_at) }];
  });
}

/**
 * Reads and validates an uploaded archive: the VERSION file (GitLab's VersionChecker wants exactly
 * its own version), the group list and every listed group's attributes. Relations are optional.
 * Groups come parents first; the first is the imported group itself.
 */
export function readArchive(archive: Buffer, limits: ReadLimits): ImportGroup[] {
  let entries: TarEntry[];
  try {
    entries = readTarGz(archive, limits);
  } catch (err) {
    if (err instanceof TarError) throw new ArchiveError(`Invalid archive: ${err.message}`);
    throw err;
  }
  const files = new Map(entries.filter((e) => e.type !== "directory").map((e) => [e.name, e.data.toString("utf8")]));
  const version = files.get("VERSION");
  if (version === undefined) throw new ArchiveError("Invalid archive: VERSION file is missing");
  if (version.trim() !== EXPORT_VERSION) throw new ArchiveError(`Import version mismatch: Required ${EXPORT_VERSION} but was ${version.trim()}`);
  const all = files.get("tree/groups/_all.ndjson");
  if (all === undefined) throw new ArchiveError("Invalid archive: tree/groups/_all.ndjson is missing");
  const ids = parseNdjson(all, "tree/groups/_all.ndjson").map((v) => (typeof v === "number" ? v : Number(v)));
  if (!ids.length || ids.some((id) => !Number.isInteger(id))) throw new ArchiveError("Invalid archive: no groups listed in tree/groups/_all.ndjson");
  if (new Set(ids).size !== ids.length) throw new ArchiveError("Invalid archive: a group is listed twice");

  const groups = new Map<number, ImportGroup>();
  for (const id of ids) {
    const text = files.get(`tree/groups/${id}.json`);
    if (text === undefined) throw new ArchiveError(`Invalid archive: tree/groups/${id}.json is missing`);
    const raw = parseJson(text, `tree/groups/${id}.json`);
    if (!isObject(raw)) throw new ArchiveError(`Invalid archive: tree/groups/${id}.json is not an object`);
    const rel = (name: string) => parseNdjson(files.get(`tree/groups/${id}/${name}.ndjson`), `tree/groups/${id}/${name}.ndjson`);
    groups.set(id, {
      id,
      parent_id: int(raw.parent_id) ?? null,
      attributes: attributesOf(raw),
      labels: labelsOf(rel("labels")),
      milestones: milestonesOf(rel("milestones")),
      members: membersOf(rel("members")),
    });
  }
  // The root is the first listed group (GitLab exports self_and_descendants, root first); every
  // other group needs a parent in the archive.
  const root = groups.get(ids[0])!;
  const ordered: ImportGroup[] = [{ ...root, parent_id: null }];
  const placed = new Set([root.id]);
  let pending = ids.slice(1).map((id) => groups.get(id)!);
  while (pending.length) {
    const ready = pending.filter((g) => g.parent_id !== null && placed.has(g.parent_id));
    if (!ready.length) throw new ArchiveError(`Invalid archive: group ${pending[0].id} has no parent in the archive`);
    for (const g of ready) {
      if (!g.attributes.name || !g.attributes.path) throw new ArchiveError(`Invalid archive: group ${g.id} has no name or path`);
      ordered.push(g);
      placed.add(g.id);
    }
    pending = pending.filter((g) => !placed.has(g.id));
  }
  return ordered;
}
