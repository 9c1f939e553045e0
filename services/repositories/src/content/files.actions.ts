import { actionsOf, badRequestMessage, fileResponse, notFound, reply, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { blame, commitOnBranch, getRawFile, isBinaryContent, RepositoryError, resolveCommit, type CommitAction } from "@collab/git";
import { Repositories } from "@collab/repositories-contract";
import type { ActionSchema } from "moleculer";
import { onProjectRepository, type ProjectRepository } from "../api/project-repository";
import type { LocalStorages } from "../domain/storages";
import { announceBranchMove, asApiError, authorizeBranchPush, authorOf, committerOf } from "./branch-writes";
import { fileHeaders, fileMetadata, presentBlame } from "./content.entity";
import { NO_CACHE_HEADERS, rawContentType } from "./repository.actions";

const byId = { project: (p: { id: string }) => p.id };

/** GitLab's assign_file_vars!: the ref's commit (404 Commit), then the file there (404 File). */
async function fileAt(repo: ProjectRepository, ref: string, path: string) {
  if (!(await resolveCommit(repo.dir, ref))) throw notFound("Commit");
  const file = await getRawFile(repo.dir, ref, path);
  if (!file) throw notFound("File");
  return file;
}

/** Files::UpdateService's answer to a stale last_commit_id. */
const FILE_CHANGED = "You are attempting to update a file that has changed since you started editing it.";

interface FileWrite {
  file_path: string;
  branch: string;
  commit_message: string;
  start_branch?: string;
  author_name?: string;
  author_email?: string;
  last_commit_id?: string;
}

/** A one-file commit of the files API (Files::CreateService, UpdateService, DeleteService) on the branch. */
async function writeFile(kit: ServiceKit, ctx: Ctx<unknown>, repo: ProjectRepository, p: FileWrite, changes: Omit<CommitAction, "file_path" | "last_commit_id">[]) {
  await authorizeBranchPush(ctx, repo, p.branch);
  const committer = await committerOf(ctx);
  const { commit, before } = await commitOnBranch(repo.dir, {
    branch: p.branch,
    start_branch: p.start_branch || p.branch,
    commit_message: p.commit_message,
    actions: changes.map((c, i) => ({ ...c, file_path: p.file_path, ...(i === 0 && p.last_commit_id ? { last_commit_id: p.last_commit_id } : {}) })),
    committer,
    author: authorOf(p, committer),
  }).catch((e: unknown) => {
    if (e instanceof RepositoryError && e.message.startsWith("The file has changed since you started editing it")) throw badRequestMessage(FILE_CHANGED);
    return asApiError(e);
  });
  await announceBranchMove(kit, ctx, repo, p.branch, before, commit.id);
  return { file_path: p.file_path, branch: p.branch };
}

/** GitLab's repository files API (lib/api/files.rb). */
export const filesActions = (kit: ServiceKit, storages: LocalStorages): Record<string, ActionSchema> =>
  actionsOf("repositories", [
    onProjectRepository(kit, storages, Repositories.files.get, { ...byId, need: "read" }, async (ctx, repo) => {
      const file = await fileAt(repo, ctx.params.ref, ctx.params.file_path);
      return reply(200, { ...fileMetadata(file), content: file.content.toString("base64") }, fileHeaders(file));
    }),

    onProjectRepository(kit, storages, Repositories.files.raw, { ...byId, need: "read" }, async (ctx, repo) => {
      const file = await fileAt(repo, ctx.params.ref || repo.access.project.default_branch || "HEAD", ctx.params.file_path);
      return fileResponse(ctx, file.content, {
        filename: file.file_name,
        contentType: rawContentType(isBinaryContent(file.content)),
        disposition: "inline",
        headers: { ...NO_CACHE_HEADERS, ...fileHeaders(file) },
      });
    }),

    onProjectRepository(kit, storages, Repositories.files.blame, { ...byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const file = await fileAt(repo, p.ref, p.file_path);
      const ranges = await blame(repo.dir, file.commit_id, p.file_path, p.range).catch(asApiError);
      if (!ranges) throw notFound("File");
      return reply(200, presentBlame(ranges, repo.access.project.web_url), fileHeaders(file));
    }),

    onProjectRepository(kit, storages, Repositories.files.create, { ...byId, need: "write" }, (ctx, repo) => {
      const p = ctx.params;
      return writeFile(kit, ctx, repo, p, [{ action: "create", content: p.content, encoding: p.encoding ?? "text", execute_filemode: p.execute_filemode ?? false }]);
    }),

    onProjectRepository(kit, storages, Repositories.files.update, { ...byId, need: "write" }, (ctx, repo) => {
      const p = ctx.params;
      // execute_filemode changes the mode in the same commit (a chmod after the update).
      const chmod = p.execute_filemode === undefined ? [] : [{ action: "chmod" as const, execute_filemode: p.execute_filemode }];
      return writeFile(kit, ctx, repo, p, [{ action: "update", content: p.content, encoding: p.encoding ?? "text" }, ...chmod]);
    }),

    onProjectRepository(kit, storages, Repositories.files.delete, { ...byId, need: "write" }, async (ctx, repo) => {
      await writeFile(kit, ctx, repo, ctx.params, [{ action: "delete" }]);
      return undefined;
    }),
  ]);
