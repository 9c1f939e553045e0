/**
 * Branches and tags of projects' repositories: GitLab's branches and tags API (lib/api/branches.rb,
 * tags.rb) and what other services ask of refs over the bus (heads, resolve, findCommit). Every
 * action runs on a replica serving the project's storage.
 */
import { actionContract, gEnum, gString, noContent, pageOf, paginationParams, replyOf, type OutputOf } from "@collab/core";
import { z } from "zod";

const projectId = () => z.number().int().positive().max(2_147_483_647);
/** `:id` of a REST route: a project id or its URL-encoded full path. */
const projectRef = () => gString().refine((s) => s.length > 0, { error: "is invalid" });
/** A name the service checks itself (git's and GitLab's rules answer with GitLab's messages). */
const name = () => gString();
const search = () => gString().optional();

/** GitLab's Commit entity (the commit a branch or tag points at). */
export const CommitSchema = z.object({
  id: z.string(),
  short_id: z.string(),
  created_at: z.string(),
  parent_ids: z.array(z.string()),
  title: z.string(),
  message: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  authored_date: z.string(),
  committer_name: z.string(),
  committer_email: z.string(),
  committed_date: z.string(),
  trailers: z.record(z.string(), z.string()),
  extended_trailers: z.record(z.string(), z.array(z.string())),
  web_url: z.string(),
});

/** GitLab's Branch entity. */
export const BranchSchema = z.object({
  name: z.string(),
  commit: CommitSchema,
  /** Merged into the default branch (and not its very head). */
  merged: z.boolean(),
  protected: z.boolean(),
  developers_can_push: z.boolean(),
  developers_can_merge: z.boolean(),
  can_push: z.boolean(),
  default: z.boolean(),
  web_url: z.string(),
});
export type Branch = z.infer<typeof BranchSchema>;

/** GitLab's Tag entity (no releases or protected tags here). */
export const TagSchema = z.object({
  name: z.string(),
  message: z.string(),
  /** The tag object of an annotated tag, else the commit. */
  target: z.string(),
  commit: CommitSchema.nullable(),
  release: z.null(),
  protected: z.boolean(),
  /** The tagger's date of an annotated tag; null for a lightweight one. */
  created_at: z.string().nullable(),
});
export type Tag = z.infer<typeof TagSchema>;

export const ListBranchesParams = z.object({
  id: projectRef(),
  /** GitLab's search: a substring, `^prefix` or `suffix$`, case-insensitive. */
  search: search(),
  sort: gEnum(["name_asc", "updated_asc", "updated_desc"] as const).default("name_asc"),
  ...paginationParams,
});
export const BranchParams = z.object({ id: projectRef(), branch: name() });
export const CreateBranchParams = z.object({ id: projectRef(), branch: name(), ref: name() });

export const ListTagsParams = z.object({
  id: projectRef(),
  search: search(),
  order_by: gEnum(["name", "updated", "version"] as const).default("updated"),
  sort: gEnum(["asc", "desc"] as const).default("desc"),
  ...paginationParams,
});
export const TagParams = z.object({ id: projectRef(), tag_name: name() });
export const CreateTagParams = z.object({ id: projectRef(), tag_name: name(), ref: name(), message: gString().optional() });

const ProjectRefLookup = z.object({ project_id: projectId(), ref: z.string().max(1024) });

/** What `refs.resolve` answers of a short or full ref. */
const RefResolutionSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("ok"), kind: z.enum(["branch", "tag"]), name: z.string(), full_ref: z.string(), sha: z.string() }),
  z.object({ status: z.literal("missing") }),
  z.object({ status: z.literal("ambiguous") }),
]);

export const RefsActions = {
  /**
   * Heads of branches of any projects' repositories, in the order asked (sha null for a missing
   * branch or a project without a repository). Call it on any replica: each storage's part is
   * read by a replica serving it.
   */
  heads: actionContract("repositories.refs.heads", {
    input: () => z.object({ refs: z.array(z.object({ project_id: projectId(), branch: z.string().min(1).max(1024) })).max(1000) }),
    output: () => z.array(z.object({ project_id: z.number(), branch: z.string(), sha: z.string().nullable() })),
    idempotent: true,
  }),
  /**
   * A short (`main`) or full (`refs/heads/main`, `refs/tags/v1`) ref of a project: ok (its kind,
   * name, full ref and the commit it points at), missing, or ambiguous (a short name that is both
   * a branch and a tag). Call it on any replica.
   */
  resolve: actionContract("repositories.refs.resolve", { input: () => ProjectRefLookup, output: () => RefResolutionSchema, idempotent: true }),
  /**
   * A commit of a project by sha, unambiguous short sha, branch or tag, as git resolves a
   * revision (GitLab's `project.commit(ref)`), or null. Call it on any replica.
   */
  findCommit: actionContract("repositories.refs.findCommit", {
    input: () => ProjectRefLookup,
    output: () => z.object({ sha: z.string(), title: z.string(), parent_ids: z.array(z.string()) }).nullable(),
    idempotent: true,
  }),

  /** GET /projects/:id/repository/branches (Reporter on a private project). */
  listBranches: actionContract("repositories.refs.listBranches", { input: () => ListBranchesParams, output: () => pageOf(BranchSchema), idempotent: true }),
  /** GET /projects/:id/repository/branches/:branch (404 "Branch Not Found"). */
  getBranch: actionContract("repositories.refs.getBranch", { input: () => BranchParams, output: () => BranchSchema, idempotent: true }),
  /** POST /projects/:id/repository/branches (Developer; protected names as GitLab's branch checks). */
  createBranch: actionContract("repositories.refs.createBranch", { input: () => CreateBranchParams, output: () => BranchSchema }),
  /** DELETE /projects/:id/repository/branches/:branch (204). */
  deleteBranch: actionContract("repositories.refs.deleteBranch", { input: () => BranchParams, output: () => noContent() }),
  /** DELETE /projects/:id/repository/merged_branches (202): the branches merged into the default one, protected ones kept. */
  deleteMergedBranches: actionContract("repositories.refs.deleteMergedBranches", { input: () => z.object({ id: projectRef() }), output: () => replyOf(z.object({ message: z.string() }), 202) }),

  /** GET /projects/:id/repository/tags. */
  listTags: actionContract("repositories.refs.listTags", { input: () => ListTagsParams, output: () => pageOf(TagSchema), idempotent: true }),
  /** GET /projects/:id/repository/tags/:tag_name (404 "Tag Not Found"). */
  getTag: actionContract("repositories.refs.getTag", { input: () => TagParams, output: () => TagSchema, idempotent: true }),
  /** POST /projects/:id/repository/tags (Developer): annotated when a message is given. */
  createTag: actionContract("repositories.refs.createTag", { input: () => CreateTagParams, output: () => TagSchema }),
  /** DELETE /projects/:id/repository/tags/:tag_name (204). */
  deleteTag: actionContract("repositories.refs.deleteTag", { input: () => TagParams, output: () => noContent() }),
};

/** A ref of a project as refs.resolve answers it. */
export type RefResolution = OutputOf<(typeof RefsActions)["resolve"]>;
