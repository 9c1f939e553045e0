/**
 * The repository content API (GitLab's lib/api/commits.rb, repositories.rb, files.rb): commits,
 * compare, tree, blobs, archive, contributors and files of a project's real repository. Every
 * action runs on the replica serving the project's storage.
 */
import { actionContract, fileOf, gBool, gDateTime, gEnum, gInt, gString, noContent, pageOf, paginationParams, replyOf, cursorPageOf, type RouteDef } from "@collab/core";
import { z } from "zod";
import { CommitSchema } from "./refs";

const projectRef = () => gString().refine((s) => s.length > 0, { error: "is invalid" });
/** A required string parameter GitLab refuses blank (`allow_blank: false`). */
const nonBlank = () => gString().refine((s) => s.trim().length > 0, { error: "is empty" });
const sha = () => gString().refine((s) => s.length > 0, { error: "is invalid" });

// ---- Entities (GitLab's lib/api/entities) ----

/** GitLab's Commit entity: one schema with the branches' and tags' (refs.ts). */
export const ContentCommitSchema = CommitSchema;
const StatsSchema = z.object({ additions: z.number(), deletions: z.number(), total: z.number() });
const CommitWithStatsSchema = ContentCommitSchema.extend({ stats: StatsSchema });
/** CommitDetail: stats when asked, and no pipelines here. */
const CommitDetailSchema = ContentCommitSchema.extend({ stats: StatsSchema.optional(), status: z.null(), project_id: z.number(), last_pipeline: z.null() });

export const ContentDiffSchema = z.object({
  diff: z.string(),
  collapsed: z.boolean(),
  too_large: z.boolean(),
  new_path: z.string(),
  old_path: z.string(),
  a_mode: z.string(),
  b_mode: z.string(),
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
  generated_file: z.boolean(),
});

const CompareSchema = z.object({
  commit: ContentCommitSchema.nullable(),
  commits: z.array(ContentCommitSchema),
  diffs: z.array(ContentDiffSchema),
  compare_timeout: z.boolean(),
  compare_same_ref: z.boolean(),
  web_url: z.string(),
});

const TreeObjectSchema = z.object({ id: z.string(), name: z.string(), type: z.enum(["tree", "blob", "commit"]), path: z.string(), mode: z.string() });
const BlobSchema = z.object({ size: z.number(), encoding: z.literal("base64"), content: z.string(), sha: z.string() });
const BasicRefSchema = z.object({ type: z.enum(["branch", "tag"]), name: z.string() });
const ContributorSchema = z.object({ name: z.string(), email: z.string(), commits: z.number(), additions: z.number(), deletions: z.number() });
const FileSchema = z.object({
  file_name: z.string(),
  file_path: z.string(),
  size: z.number(),
  encoding: z.literal("base64"),
  content_sha256: z.string(),
  ref: z.string(),
  blob_id: z.string(),
  commit_id: z.string(),
  last_commit_id: z.string(),
  execute_filemode: z.boolean(),
  content: z.string(),
});
const BlameRangeSchema = z.object({ commit: ContentCommitSchema, lines: z.array(z.string()) });
const FileWriteSchema = z.object({ file_path: z.string(), branch: z.string() });

// ---- Params ----

const ListCommitsParams = z.object({
  id: projectRef(),
  ref_name: gString().optional(),
  since: gDateTime().optional(),
  until: gDateTime().optional(),
  path: gString().optional(),
  author: gString().optional(),
  all: gBool().default(false),
  with_stats: gBool().default(false),
  first_parent: gBool().default(false),
  order: gEnum(["default", "topo"] as const).default("default"),
  trailers: gBool().default(false),
  ...paginationParams,
});

const CommitParams = z.object({ id: projectRef(), sha: sha(), stats: gBool().default(true) });
const CommitDiffParams = z.object({ id: projectRef(), sha: sha(), ...paginationParams });
const CommitRefsParams = z.object({ id: projectRef(), sha: sha(), type: gEnum(["branch", "tag", "all"] as const).default("all"), ...paginationParams });

/** One of GitLab's commit `actions` (their rules are checked with GitLab's messages by the action). */
const CommitActionParam = z.object({
  action: gString().optional(),
  file_path: gString().optional(),
  previous_path: gString().optional(),
  content: gString().optional(),
  encoding: gString().optional(),
  last_commit_id: gString().optional(),
  execute_filemode: z.union([z.boolean(), z.string()]).optional(),
});
export type CommitActionParam = z.output<typeof CommitActionParam>;

const CreateCommitParams = z.object({
  id: projectRef(),
  branch: gString().optional(),
  commit_message: gString().optional(),
  start_branch: gString().optional(),
  start_sha: gString().optional(),
  actions: z.array(CommitActionParam, { error: "is invalid" }).max(1000).optional(),
  author_email: gString().optional(),
  author_name: gString().optional(),
  stats: gBool().default(true),
  force: gBool().default(false),
});

const PickParams = z.object({ id: projectRef(), sha: sha(), branch: nonBlank(), dry_run: gBool().default(false) });
const CherryPickParams = PickParams.extend({ message: gString().optional() });

const CompareParams = z.object({ id: projectRef(), from: nonBlank(), to: nonBlank(), straight: gBool().default(false) });

const TreeParams = z
  .object({
    id: projectRef(),
    ref: gString().optional(),
    path: gString().optional(),
    recursive: gBool().default(false),
    pagination: gEnum(["legacy", "keyset", "none"] as const).default("legacy"),
    page_token: gString().optional(),
    ...paginationParams,
  })
  .refine((p) => p.pagination !== "none" || p.recursive, { error: 'pagination cannot be "none" unless "recursive" is true' });

const BlobParams = z.object({ id: projectRef(), sha: sha() });

const ArchiveParams = z.object({
  id: projectRef(),
  sha: gString().optional(),
  format: gString().optional(),
  path: gString().optional(),
  include_lfs_blobs: gBool().default(true),
});

const ContributorsParams = z.object({
  id: projectRef(),
  ref: gString().optional(),
  order_by: gEnum(["email", "name", "commits"] as const).default("commits"),
  sort: gEnum(["asc", "desc"] as const).default("asc"),
  ...paginationParams,
});

const filePath = () => gString().refine((s) => s.length > 0, { error: "is invalid" });
const FileParams = z.object({ id: projectRef(), file_path: filePath(), ref: nonBlank() });
const RawFileParams = z.object({ id: projectRef(), file_path: filePath(), ref: gString().optional(), lfs: gBool().default(false) });
const BlameParams = FileParams.extend({ range: z.object({ start: gInt(), end: gInt() }, { error: "is invalid" }).optional() });

const fileWrite = {
  id: projectRef(),
  file_path: filePath(),
  branch: nonBlank(),
  commit_message: nonBlank(),
  start_branch: gString().optional(),
  author_email: gString().optional(),
  author_name: gString().optional(),
};
const WriteFileParams = z.object({
  ...fileWrite,
  content: gString(),
  encoding: gEnum(["text", "base64"] as const).optional(),
  last_commit_id: gString().optional(),
  execute_filemode: gBool().optional(),
});
const DeleteFileParams = z.object({ ...fileWrite, last_commit_id: gString().optional() });

// ---- Actions ----

export const ContentActions = {
  commits: {
    /** GET …/repository/commits: a page of commits, not counted (no X-Total, as GitLab's). */
    list: actionContract("repositories.commits.list", { input: () => ListCommitsParams, output: () => pageOf(z.union([CommitWithStatsSchema, ContentCommitSchema])), idempotent: true }),
    /** GET …/repository/commits/:sha: CommitDetail, with stats unless stats=false. */
    get: actionContract("repositories.commits.get", { input: () => CommitParams, output: () => CommitDetailSchema, idempotent: true }),
    /** GET …/repository/commits/:sha/diff: the commit's diffs against its first parent, paginated. */
    diff: actionContract("repositories.commits.diff", { input: () => CommitDiffParams, output: () => pageOf(ContentDiffSchema), idempotent: true }),
    /** GET …/repository/commits/:sha/refs: the branches and tags containing the commit. */
    refs: actionContract("repositories.commits.refs", { input: () => CommitRefsParams, output: () => pageOf(BasicRefSchema), idempotent: true }),
    /** POST …/repository/commits: one commit of file actions on a branch (Developers; the branch's protection applies). */
    create: actionContract("repositories.commits.create", { input: () => CreateCommitParams, output: () => CommitDetailSchema }),
    /** POST …/repository/commits/:sha/cherry_pick */
    cherryPick: actionContract("repositories.commits.cherryPick", { input: () => CherryPickParams, output: () => z.union([ContentCommitSchema, replyOf(z.object({ dry_run: z.literal("success") }), 200)]) }),
    /** POST …/repository/commits/:sha/revert */
    revert: actionContract("repositories.commits.revert", { input: () => PickParams, output: () => z.union([ContentCommitSchema, replyOf(z.object({ dry_run: z.literal("success") }), 200)]) }),
  },
  repository: {
    /** GET …/repository/compare */
    compare: actionContract("repositories.repository.compare", { input: () => CompareParams, output: () => CompareSchema, idempotent: true }),
    /** GET …/repository/tree: offset pages, keyset pages (pagination=keyset, page_token) or everything (pagination=none, recursive). */
    tree: actionContract("repositories.repository.tree", {
      input: () => TreeParams,
      output: () => z.union([pageOf(TreeObjectSchema), cursorPageOf(TreeObjectSchema), z.array(TreeObjectSchema)]),
      idempotent: true,
    }),
    /** GET …/repository/blobs/:sha */
    blob: actionContract("repositories.repository.blob", { input: () => BlobParams, output: () => BlobSchema, idempotent: true }),
    /** GET …/repository/blobs/:sha/raw: the blob's bytes. */
    blobRaw: actionContract("repositories.repository.blobRaw", { input: () => BlobParams, output: fileOf, idempotent: true }),
    /** GET …/repository/archive[.format]: `git archive` streamed. */
    archive: actionContract("repositories.repository.archive", { input: () => ArchiveParams, output: fileOf, idempotent: true }),
    /** GET …/repository/contributors */
    contributors: actionContract("repositories.repository.contributors", { input: () => ContributorsParams, output: () => pageOf(ContributorSchema), idempotent: true }),
  },
  files: {
    /** GET/HEAD …/repository/files/:file_path: the file with its content in base64, and GitLab's X-Gitlab-* headers. */
    get: actionContract("repositories.files.get", { input: () => FileParams, output: () => replyOf(FileSchema, 200), idempotent: true }),
    /** GET …/repository/files/:file_path/raw (ref defaults to the default branch). */
    raw: actionContract("repositories.files.raw", { input: () => RawFileParams, output: fileOf, idempotent: true }),
    /** GET …/repository/files/:file_path/blame */
    blame: actionContract("repositories.files.blame", { input: () => BlameParams, output: () => replyOf(z.array(BlameRangeSchema), 200), idempotent: true }),
    /** POST …/repository/files/:file_path: 201 {file_path, branch}. */
    create: actionContract("repositories.files.create", { input: () => WriteFileParams, output: () => FileWriteSchema }),
    /** PUT …/repository/files/:file_path: 200 {file_path, branch}; 400 when last_commit_id is stale. */
    update: actionContract("repositories.files.update", { input: () => WriteFileParams, output: () => FileWriteSchema }),
    /** DELETE …/repository/files/:file_path: 204. */
    delete: actionContract("repositories.files.delete", { input: () => DeleteFileParams, output: noContent }),
  },
};

const R = "/projects/:id/repository";
const A = ContentActions;
/** GitLab lets read_repository tokens read files (GET and HEAD). */
const readRepository = ["read_repository"] as const;

export const contentRoutes: RouteDef[] = [
  { method: "GET", path: `${R}/commits`, action: A.commits.list.name, auth: "optional" },
  { method: "POST", path: `${R}/commits`, action: A.commits.create.name },
  { method: "GET", path: `${R}/commits/:sha`, action: A.commits.get.name, auth: "optional" },
  { method: "GET", path: `${R}/commits/:sha/diff`, action: A.commits.diff.name, auth: "optional" },
  { method: "GET", path: `${R}/commits/:sha/refs`, action: A.commits.refs.name, auth: "optional" },
  { method: "POST", path: `${R}/commits/:sha/cherry_pick`, action: A.commits.cherryPick.name },
  { method: "POST", path: `${R}/commits/:sha/revert`, action: A.commits.revert.name },
  { method: "GET", path: `${R}/compare`, action: A.repository.compare.name, auth: "optional" },
  { method: "GET", path: `${R}/tree`, action: A.repository.tree.name, auth: "optional" },
  { method: "GET", path: `${R}/blobs/:sha`, action: A.repository.blob.name, auth: "optional" },
  { method: "GET", path: `${R}/blobs/:sha/raw`, action: A.repository.blobRaw.name, auth: "optional" },
  { method: "GET", path: `${R}/archive`, action: A.repository.archive.name, auth: "optional" },
  { method: "GET", path: `${R}/archive.:format`, action: A.repository.archive.name, auth: "optional" },
  { method: "GET", path: `${R}/contributors`, action: A.repository.contributors.name, auth: "optional" },
  { method: "GET", path: `${R}/files/:file_path`, action: A.files.get.name, auth: "optional", scopes: readRepository },
  { method: "GET", path: `${R}/files/:file_path/raw`, action: A.files.raw.name, auth: "optional", scopes: readRepository },
  { method: "GET", path: `${R}/files/:file_path/blame`, action: A.files.blame.name, auth: "optional", scopes: readRepository },
  { method: "POST", path: `${R}/files/:file_path`, action: A.files.create.name },
  { method: "PUT", path: `${R}/files/:file_path`, action: A.files.update.name },
  { method: "DELETE", path: `${R}/files/:file_path`, action: A.files.delete.name },
];
