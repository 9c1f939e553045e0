import { actionsOf, cursorPage, notFound, page, type FileMeta } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { archive, compare, contributors, getBlob, listTree, openBlob } from "@collab/git";
import { Repositories } from "@collab/repositories-contract";
import type { ActionSchema } from "moleculer";
import { onProjectRepository } from "../api/project-repository";
import type { LocalStorages } from "../domain/storages";
import { asApiError } from "./branch-writes";
import { presentCompare } from "./content.entity";

const byId = { project: (p: { id: string }) => p.id };

/** GitLab's no_cache_headers, on raw downloads. */
export const NO_CACHE_HEADERS = { "Cache-Control": "no-cache, no-store", Pragma: "no-cache", Expires: "Fri, 01 Jan 1990 00:00:00 GMT" };

/** How a raw blob is sent (GitLab's send_git_blob): inline, as text when it is not binary. */
export const rawContentType = (binary: boolean) => (binary ? "application/octet-stream" : "text/plain; charset=utf-8");

const setFile = (ctx: { meta: object }, file: FileMeta) => {
  (ctx.meta as { $file?: FileMeta }).$file = file;
};

/** Compare, tree, blobs, archive and contributors of the project's repository (GitLab's repositories.rb). */
export const repositoryActions = (kit: ServiceKit, storages: LocalStorages): Record<string, ActionSchema> =>
  actionsOf("repositories", [
    onProjectRepository(kit, storages, Repositories.repository.compare, { ...byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const found = await compare(repo.dir, p.from, p.to, { straight: p.straight, expanded: true });
      if (!found) throw notFound("Ref");
      return presentCompare(found, repo.access.project.web_url);
    }),

    onProjectRepository(kit, storages, Repositories.repository.tree, { ...byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const ref = p.ref || repo.access.project.default_branch || "HEAD";
      const all = p.pagination === "none";
      const keyset = p.pagination === "keyset";
      const found = await listTree(repo.dir, ref, {
        path: p.path,
        recursive: p.recursive,
        ...(all ? { perPage: Number.MAX_SAFE_INTEGER } : { perPage: p.per_page, page: keyset ? 1 : p.page }),
        ...(keyset && p.page_token ? { after: p.page_token } : {}),
      }).catch(asApiError);
      if (!found) throw notFound("Tree");
      if (all) return found.entries;
      if (keyset) return cursorPage(found.entries, found.hasNext ? { page_token: found.entries.at(-1)!.path } : null);
      return page(found.entries, found.total, p);
    }),

    onProjectRepository(kit, storages, Repositories.repository.blob, { ...byId, need: "read" }, async (ctx, repo) => {
      const blob = await getBlob(repo.dir, ctx.params.sha);
      if (!blob) throw notFound("Blob");
      return { size: blob.size, encoding: blob.encoding, content: blob.content, sha: blob.sha };
    }),

    onProjectRepository(kit, storages, Repositories.repository.blobRaw, { ...byId, need: "read" }, async (ctx, repo) => {
      const blob = await openBlob(repo.dir, ctx.params.sha);
      if (!blob) throw notFound("Blob");
      setFile(ctx, { filename: blob.id, contentType: rawContentType(blob.binary), size: blob.size, disposition: "inline", headers: NO_CACHE_HEADERS });
      return blob.stream;
    }),

    onProjectRepository(kit, storages, Repositories.repository.archive, { ...byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const project = repo.access.project;
      const made = await archive(repo.dir, { ref: p.sha || project.default_branch || "HEAD", project: project.path, format: p.format, path: p.path }).catch(asApiError);
      if (!made) throw notFound("File");
      setFile(ctx, { filename: made.filename, contentType: made.contentType });
      return made.stream;
    }),

    onProjectRepository(kit, storages, Repositories.repository.contributors, { ...byId, need: "read" }, async (ctx, repo) => {
      const p = ctx.params;
      const found = await contributors(repo.dir, { ref: p.ref || repo.access.project.default_branch || "HEAD", orderBy: p.order_by, sort: p.sort });
      // GitLab answers a ref it cannot read with a bare 404.
      if (!found) throw notFound();
      const start = (p.page - 1) * p.per_page;
      return page(found.slice(start, start + p.per_page), found.length, p);
    }),
  ]);
