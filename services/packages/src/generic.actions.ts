import { implement, recordNotFound, reply, type FileMeta } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { eq } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { presentPackageFile } from "./api/package.entity";
import { Packages } from "@collab/packages-contract";
import { packages } from "./db/schema";
import { registryAccess } from "./domain/access";
import { assertPushAllowed } from "./domain/protection";
import { findOrCreateGenericPackage, recordBuildInfo } from "./domain/publish";
import { findInstallableFile } from "./finders/packages.finder";
import { chunkCountOf, openFile, storeFile } from "./storage/storage";
import { assertDeclaredWithin, uploadBody } from "./storage/upload";

/** A stored file name: a path's segments URL-encoded as GitLab does, a plain name as it is. */
const storedName = (fileName: string) => (fileName.includes("/") ? encodeURIComponent(fileName) : fileName);

/**
 * The generic package registry (GitLab's lib/api/generic_packages.rb): any file under a package
 * name and version, uploaded as the raw request body and downloaded as it was.
 */
export function genericActions(kit: ServiceKit): Record<string, ActionSchema> {
  return {
    /**
     * PUT …/generic/:package_name/:package_version/*file_name: 201 `{"message":"201 Created"}`, or
     * the file record with select=package_file. The body streams into the package's new file in
     * one transaction: a refused or broken upload leaves nothing. Same name again: a new file (GitLab
     * keeps duplicates unless the namespace forbids them); downloads serve the newest.
     */
    "generic.upload": implement(
      Packages.generic.upload,
      async (ctx) => {
        const { package_name: name, package_version: version, status, select } = ctx.params;
        const access = await registryAccess(ctx, ctx.params.id, "publish");
        await assertPushAllowed(kit.db, access, "generic", name);
        const limit = kit.config.PACKAGES_GENERIC_MAX_FILE_SIZE;
        assertDeclaredWithin(ctx.params.headers, limit);
        const creatorId = access.caller && !access.deployToken ? access.caller.id : null;
        const file = await kit.db.transaction(async (tx) => {
          const pkg = await findOrCreateGenericPackage(tx, { projectId: access.project.id, name, version, status, creatorId });
          const stored = await storeFile(tx, pkg.id, storedName(ctx.params.file_name), uploadBody(ctx), limit);
          await recordBuildInfo(tx, pkg.id, stored.id, access.pipelineId);
          await tx.update(packages).set({ updatedAt: new Date() }).where(eq(packages.id, pkg.id));
          return stored;
        });
        if (select === "package_file") return presentPackageFile(file);
        return reply(201, { message: "201 Created" });
      },
      { visibility: "published" },
    ),

    /** GET …/generic/:package_name/:package_version/*file_name: the newest file of that name, streamed. */
    "generic.download": implement(
      Packages.generic.download,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "read");
        const found = await findInstallableFile(kit.db, {
          projectId: access.project.id,
          packageType: "generic",
          name: ctx.params.package_name,
          version: ctx.params.package_version,
          fileName: storedName(ctx.params.file_name),
        });
        if (!found) throw recordNotFound();
        await kit.db.update(packages).set({ lastDownloadedAt: new Date() }).where(eq(packages.id, found.pkg.id));
        const meta: FileMeta = {
          filename: ctx.params.file_name.split("/").pop()!,
          contentType: "application/octet-stream",
          size: found.file.size,
          headers: found.file.fileSha256 ? { "X-Checksum-SHA256": found.file.fileSha256 } : {},
        };
        (ctx.meta as { $file?: FileMeta }).$file = meta;
        return openFile(kit.db, found.file.id, chunkCountOf(found.file.size));
      },
      { visibility: "published" },
    ),
  };
}
