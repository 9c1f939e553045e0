/** Actions of the repositories service (bus only: git's HTTP transport is mounted by the gateway). */
import { actionContract, fileOf } from "@collab/core";
import { z } from "zod";
import { PushesActions } from "./pushes";
import { RefsActions } from "./refs";
import { ContentActions } from "./content";
import { MergeRequestsRepositoryActions } from "./merge-requests";

/** A storage's name as REPOSITORY_STORAGES declares it. */
export const StorageName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/);

/** What a repository belongs to: a project, or a snippet (GitLab keeps one per snippet). */
export const ContainerKind = z.enum(["project", "snippet"]);
export type ContainerKind = z.infer<typeof ContainerKind>;

const Container = z.object({ container_kind: ContainerKind, container_id: z.number().int().positive().max(2_147_483_647) });

export const RepositorySchema = z.object({
  id: z.number(),
  container_kind: ContainerKind,
  container_id: z.number(),
  storage: z.string(),
  /** Relative to the storage's folder: GitLab's hashed storage path (`@hashed/ab/cd/<sha256>.git`). */
  disk_path: z.string(),
  /** Whether the repository is on disk; null when the answering replica does not serve its storage. */
  exists: z.boolean().nullable(),
});
export type Repository = z.infer<typeof RepositorySchema>;

/** A branch name: no control characters or git's forbidden sequences (git check-ref-format decides the rest). */
const BranchName = z
  .string()
  .min(1)
  .max(255)
  .refine((v) => !/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|^[-/.]|[/.]$|\.lock$|\/\//.test(v), { message: "is not a valid branch name" });

/** The first commit of a repository created with `initialize_with_readme`. */
const FirstFile = z.object({
  file_name: z.literal("README.md"),
  content: z.string().max(1_000_000),
  message: z.string().min(1).max(10_000),
  author_name: z.string().min(1).max(255),
  author_email: z.string().min(1).max(255),
});

/** A file path inside a repository (git's checks decide the rest: traversal, `.git`). */
const FilePath = z.string().min(1).max(4096);

/** Who makes a commit the service writes for a user (a snippet's author, an editor). */
const CommitAuthor = { author_name: z.string().min(1).max(255), author_email: z.string().min(1).max(255) };

/** The first commit of a snippet's repository: its files, in order. */
const FirstFiles = z.object({
  files: z.array(z.object({ file_path: FilePath, content: z.string().max(10_000_000) })).min(1).max(100),
  message: z.string().min(1).max(10_000),
  ...CommitAuthor,
});

/** One change of a commit the service writes (GitLab's commit `actions`, without chmod). */
export const FileActionSchema = z.object({
  action: z.enum(["create", "update", "delete", "move"]),
  file_path: FilePath,
  previous_path: FilePath.optional(),
  content: z.string().max(10_000_000).optional(),
});
export type FileAction = z.infer<typeof FileActionSchema>;

/** A git HTTP request for a project's repository, after the gateway authenticated its caller. */
const GitRequest = z.object({
  project_id: z.number().int().positive().max(2_147_483_647),
  /** The client's `Git-Protocol` header (`version=2`), passed on to git. */
  git_protocol: z
    .string()
    .max(256)
    .regex(/^[A-Za-z0-9=:.,_-]*$/)
    .optional(),
});

export const GitServiceName = z.enum(["git-upload-pack", "git-receive-pack"]);

/** GitLab's answers to git clients (Gitlab::GitAccess), shown by git as `remote: …` or in its error. */
export const GitMessages = {
  notFound: "The project you were looking for could not be found or you don't have permission to view it.",
  download: "You are not allowed to download code from this project.",
  push: "You are not allowed to push code to this project.",
  archived: "You are not allowed to push code to an archived project.",
  readOnly: "The repository is temporarily read-only. Please try again later.",
} as const;

export const RepositoriesActions = {
  ...PushesActions,
  ...ContentActions,
  ...MergeRequestsRepositoryActions,
  repositories: {
    /**
     * Creates a container's repository on `storage` (call it on that storage's replica:
     * `onStorage`), with a first commit of `readme` on `default_branch` when given. Safe to repeat:
     * an existing repository is answered as it is.
     */
    create: actionContract("repositories.repositories.create", {
      input: () =>
        Container.extend({ storage: StorageName, default_branch: BranchName.default("main"), readme: FirstFile.optional(), first_files: FirstFiles.optional() }).refine(
          (p) => !(p.readme && p.first_files),
          { message: "readme and first_files are exclusive" },
        ),
      output: () => RepositorySchema,
    }),
    /** A container's repository (null when it has none); `exists` read on disk by a replica serving its storage. */
    find: actionContract("repositories.repositories.find", { input: () => Container, output: () => RepositorySchema.nullable(), idempotent: true }),
    /**
     * Commits file actions on a branch of a container's repository (call it on its storage's
     * replica). A refused action (a missing file, an existing target, an invalid path) is a 400
     * with git's reason; nothing moves then.
     */
    commit: actionContract("repositories.repositories.commit", {
      input: () => Container.extend({ branch: BranchName, message: z.string().min(1).max(10_000), actions: z.array(FileActionSchema).min(1).max(1000), ...CommitAuthor }),
      output: () => z.object({ id: z.string() }),
    }),
    /** Removes a container's repository, folder and record (call it on its storage's replica). Safe to repeat. */
    remove: actionContract("repositories.repositories.remove", { input: () => Container, output: () => z.object({ removed: z.boolean() }) }),
    /**
     * A storage move's copy (call it on the destination's replica): copies the container's
     * repository from its storage to `storage` (by path when this replica serves both, else as a
     * bundle streamed from the source's replica), verifies refs, targets, HEAD and connectivity,
     * then records `storage` as the repository's. 422 when the copy fails or differs (the source
     * is left as it was). Safe to repeat. `moved: false` when the container has no repository.
     */
    replicate: actionContract("repositories.repositories.replicate", {
      input: () => Container.extend({ storage: StorageName }),
      output: () => z.object({ moved: z.boolean() }),
    }),
    /** After a move: removes the copy left on `storage` (call it on that storage's replica); refused (422) while the repository lives there. */
    removeCopy: actionContract("repositories.repositories.removeCopy", {
      input: () => Container.extend({ storage: StorageName }),
      output: () => z.object({ removed: z.boolean() }),
    }),
    /** Every ref with its target and HEAD's branch, read on the repository's replica (what a copy is verified against). */
    refState: actionContract("repositories.repositories.refState", {
      input: () => Container,
      output: () => z.object({ refs: z.record(z.string(), z.string()), head: z.string() }),
      idempotent: true,
    }),
    /** The repository as a git bundle stream (empty when it has no refs), read on its replica: a storage move's transfer. */
    bundle: actionContract("repositories.repositories.bundle", { input: () => Container, output: fileOf, idempotent: true }),
  },
  refs: { ...RefsActions },
  git: {
    /** `GET …/info/refs?service=…`: the refs advertisement (a stream), after the access check of that service. */
    infoRefs: actionContract("repositories.git.infoRefs", { input: () => GitRequest.extend({ service: GitServiceName }), output: fileOf, idempotent: true }),
    /** `POST …/git-upload-pack`: the request body as ctx.stream, the pack back as a stream. */
    uploadPack: actionContract("repositories.git.uploadPack", { input: () => GitRequest, output: fileOf }),
    /** `POST …/git-receive-pack`: a push, checked ref by ref before any ref moves (see the service's push/). */
    receivePack: actionContract("repositories.git.receivePack", { input: () => GitRequest, output: fileOf }),
  },
};
