import { implement, ApiError, notFound, reply, type FileMeta } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { NPM_NAME, NpmDocument, Packages, SEMVER, type NpmVersion } from "@collab/packages-contract";
import { INSTALLABLE_STATUSES } from "./api/packages.params";
import { npmMetadata, packageFiles, packages, packageTags, type PackageFileRow, type PackageRow } from "./db/schema";
import { registryAccess, type RegistryAccess } from "./domain/access";
import { pushProtected, rulesFor } from "./domain/protection";
import { createNpmPackage, npmVersionExists, recordBuildInfo, setTag } from "./domain/publish";
import { findInstallableFile } from "./finders/packages.finder";
import { chunkCountOf, openFile, storeFile } from "./storage/storage";
import { assertDeclaredWithin, base64Pieces, base64Size, readCapped, uploadBody } from "./storage/upload";

/** npm's answers carry both keys (GitLab's render_structured_api_error!). */
const npmError = (status: number, message: string) => new ApiError(status, { message, error: message }, status === 403 ? "FORBIDDEN" : "BAD_REQUEST");
const missing = (what: string) => new ApiError(400, { message: `400 Bad request - "${what}" not given`, error: `"${what}" not given` }, "BAD_REQUEST");

/** package.json fields a published version keeps (GitLab's PACKAGE_JSON_NOT_ALLOWED_FIELDS are dropped). */
const DROPPED_FIELDS = ["readme", "readmeFilename", "licenseText", "contributors", "exports"];
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall"];
/** Fields of the abbreviated version object served besides name, version and dist (GitLab's list). */
const SERVED_FIELDS = ["deprecated", "bin", "directories", "engines", "_hasShrinkwrap", "hasInstallScript"];
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "bundleDependencies", "peerDependencies", "optionalDependencies"];

/** SemVer precedence, enough to pick `latest` when no tag says so. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.split("+")[0].split(/-(.*)/s);
    return { nums: core.split(".").map((n) => Number(n)), pre: pre ? pre.split(".") : [] };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if ((x.nums[i] ?? 0) !== (y.nums[i] ?? 0)) return (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
  if (!x.pre.length || !y.pre.length) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** The version's package.json as kept: install scripts flagged, bulky fields dropped. */
export function keptPackageJson(version: Record<string, unknown>): Record<string, unknown> {
  const json: Record<string, unknown> = { ...version };
  const scripts = json.scripts as Record<string, unknown> | undefined;
  if (scripts && typeof scripts === "object" && INSTALL_SCRIPTS.some((k) => k in scripts)) json.hasInstallScript = true;
  for (const f of DROPPED_FIELDS) delete json[f];
  return json;
}

/**
 * The npm registry of a project (GitLab's npm_project_packages.rb and concerns/packages/npm_endpoints.rb):
 * what `npm publish`, `npm install` and `npm dist-tag` ask of a registry.
 */
export function npmActions(kit: ServiceKit): Record<string, ActionSchema> {
  const tarballUrl = (p: PackageRow, f: PackageFileRow) => `${kit.baseUrl}/api/v4/projects/${p.projectId}/packages/npm/${p.name}/-/${f.fileName}`;

  /** The project's installable packages of the name, with their newest file, metadata and tags. */
  async function versionsOf(projectId: number, name: string) {
    const rows = await kit.db
      .select()
      .from(packages)
      .where(and(eq(packages.projectId, projectId), eq(packages.packageType, "npm"), eq(packages.name, name), inArray(packages.status, [...INSTALLABLE_STATUSES])))
      .orderBy(asc(packages.id));
    const ids = rows.map((r) => r.id);
    if (!ids.length) return { rows, files: new Map<number, PackageFileRow>(), meta: new Map<number, Record<string, unknown>>(), tags: [] as { packageId: number; name: string; updatedAt: Date }[] };
    const [files, meta, tags] = await Promise.all([
      kit.db.select().from(packageFiles).where(and(inArray(packageFiles.packageId, ids), eq(packageFiles.status, "default"))).orderBy(asc(packageFiles.id)),
      kit.db.select().from(npmMetadata).where(inArray(npmMetadata.packageId, ids)),
      kit.db.select({ packageId: packageTags.packageId, name: packageTags.name, updatedAt: packageTags.updatedAt }).from(packageTags).where(inArray(packageTags.packageId, ids)),
    ]);
    const newest = new Map<number, PackageFileRow>();
    for (const f of files) newest.set(f.packageId, f);
    return { rows, files: newest, meta: new Map(meta.map((m) => [m.packageId, m.packageJson])), tags };
  }

  function distTags(rows: PackageRow[], tags: { packageId: number; name: string; updatedAt: Date }[]): Record<string, string> {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out: Record<string, string> = {};
    const when: Record<string, number> = {};
    for (const t of tags) {
      const version = byId.get(t.packageId)?.version;
      if (!version) continue;
      const at = new Date(t.updatedAt).getTime();
      if (t.name in out && when[t.name] > at) continue;
      out[t.name] = version;
      when[t.name] = at;
    }
    if (!out.latest) {
      const versions = rows.map((r) => r.version).filter((v): v is string => Boolean(v));
      if (versions.length) out.latest = versions.reduce((a, b) => (compareVersions(b, a) > 0 ? b : a));
    }
    return out;
  }

  async function publish(access: RegistryAccess, name: string, body: Buffer) {
    let doc: ReturnType<typeof NpmDocument.parse>;
    try {
      const parsed = NpmDocument.safeParse(JSON.parse(body.toString("utf8")));
      if (!parsed.success) throw missing("versions");
      doc = parsed.data;
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError(400, { message: "400 Bad request - Invalid request body" }, "BAD_REQUEST");
    }
    if (!NPM_NAME.test(name)) throw npmError(400, "Validation failed: Name should be a valid NPM package name: https://github.com/npm/validate-npm-package-name#naming-rules.");
    const version = Object.keys(doc.versions)[0];
    if (!version) throw npmError(400, "Version is empty.");
    const fileName = `${name}-${version}.tgz`;
    const attachment = doc._attachments?.[fileName];
    if (!attachment?.data) throw npmError(400, "Attachment data is empty.");
    if (await npmVersionExists(kit.db, access.project.id, name, version)) throw npmError(403, "Package already exists.");
    if (pushProtected(await rulesFor(kit.db, access.project.id, "npm", name), access)) throw npmError(403, "Package protected.");
    if (base64Size(attachment.data) > kit.config.PACKAGES_NPM_MAX_FILE_SIZE) throw npmError(400, "File is too large.");
    if (!SEMVER.test(version)) throw npmError(400, "Validation failed: Version should follow SemVer: https://semver.org");
    const tag = Object.keys(doc["dist-tags"] ?? {})[0] ?? "latest";
    const creatorId = access.caller && !access.deployToken ? access.caller.id : null;
    return kit.db.transaction(async (tx) => {
      const pkg = await createNpmPackage(tx, { projectId: access.project.id, name, version, creatorId, packageJson: keptPackageJson(doc.versions[version]) });
      const file = await storeFile(tx, pkg.id, fileName, base64Pieces(attachment.data!), kit.config.PACKAGES_NPM_MAX_FILE_SIZE);
      await setTag(tx, pkg, tag);
      await recordBuildInfo(tx, pkg.id, file.id, access.pipelineId);
      return pkg;
    });
  }

  /** `npm deprecate`: the versions named get (or lose, with an empty message) their deprecation. */
  async function deprecate(access: RegistryAccess, name: string, body: Buffer) {
    const parsed = NpmDocument.safeParse(JSON.parse(body.toString("utf8")));
    if (!parsed.success) throw missing("versions");
    const { rows, meta } = await versionsOf(access.project.id, name);
    let changed = 0;
    await kit.db.transaction(async (tx) => {
      for (const row of rows) {
        const data = row.version ? parsed.data.versions[row.version] : undefined;
        if (!data || !("deprecated" in data)) continue;
        const message = typeof data.deprecated === "string" ? data.deprecated : "";
        const json = { ...(meta.get(row.id) ?? {}) };
        if (message) json.deprecated = message;
        else delete json.deprecated;
        await tx.insert(npmMetadata).values({ packageId: row.id, packageJson: json }).onConflictDoUpdate({ target: npmMetadata.packageId, set: { packageJson: json } });
        await tx.update(packages).set({ status: message ? "deprecated" : "default", updatedAt: new Date() }).where(eq(packages.id, row.id));
        changed += 1;
      }
    });
    if (!changed) throw missing("package versions to deprecate");
  }

  /** Publish documents hold the tarball in base64 (4/3 of it) plus the package.json. */
  const publishBodyLimit = () => Math.ceil((kit.config.PACKAGES_NPM_MAX_FILE_SIZE * 4) / 3) + 16 * 1024 * 1024;

  return {
    /** PUT …/npm/:package_name: `npm publish` (or `npm deprecate`, by its npm-command header). 200. */
    "npm.publish": implement(
      Packages.npm.publish,
      async (ctx) => {
        const name = ctx.params.package_name;
        const deprecating = ctx.params.headers?.["npm-command"] === "deprecate";
        const access = await registryAccess(ctx, ctx.params.id, deprecating ? "delete" : "publish");
        assertDeclaredWithin(ctx.params.headers, publishBodyLimit());
        const body = await readCapped(uploadBody(ctx), publishBodyLimit());
        if (deprecating) {
          await deprecate(access, name, body);
          return reply(200, { message: "200 OK" });
        }
        const pkg = await publish(access, name, body);
        return { id: pkg.id, name: pkg.name, version: pkg.version, package_type: pkg.packageType, status: pkg.status, created_at: pkg.createdAt.toISOString() };
      },
      { visibility: "published" },
    ),

    /** GET …/npm/:package_name: the package document `npm install` reads. */
    "npm.metadata": implement(
      Packages.npm.metadata,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "read", { authenticateNonPublic: true });
        const name = ctx.params.package_name;
        const { rows, files, meta, tags } = await versionsOf(access.project.id, name);
        if (!rows.length) throw notFound("Packages");
        const versions: Record<string, NpmVersion> = {};
        for (const row of rows) {
          const file = files.get(row.id);
          if (!file || !row.version) continue;
          const json = meta.get(row.id) ?? {};
          const served: Record<string, unknown> = {};
          for (const f of SERVED_FIELDS) if (f in json) served[f] = json[f];
          const integrity = (json.dist as { integrity?: unknown } | undefined)?.integrity;
          versions[row.version] = {
            ...served,
            name: row.name,
            version: row.version,
            dist: { shasum: file.fileSha1, tarball: tarballUrl(row, file), ...(typeof integrity === "string" ? { integrity } : {}) },
            ...Object.fromEntries(DEPENDENCY_FIELDS.filter((f) => json[f] && typeof json[f] === "object").map((f) => [f, json[f]])),
          };
        }
        return { name, versions, "dist-tags": distTags(rows, tags) };
      },
      { visibility: "published" },
    ),

    /** GET …/npm/*package_name/-/*file_name: a tarball. */
    "npm.tarball": implement(
      Packages.npm.tarball,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "read");
        const found = await findInstallableFile(kit.db, { projectId: access.project.id, packageType: "npm", name: ctx.params.package_name, fileName: ctx.params.file_name });
        if (!found) throw notFound("Package");
        await kit.db.update(packages).set({ lastDownloadedAt: new Date() }).where(eq(packages.id, found.pkg.id));
        const meta: FileMeta = { filename: ctx.params.file_name.split("/").pop()!, contentType: "application/octet-stream", size: found.file.size };
        (ctx.meta as { $file?: FileMeta }).$file = meta;
        return openFile(kit.db, found.file.id, chunkCountOf(found.file.size));
      },
      { visibility: "published" },
    ),

    "npm.distTags.list": implement(
      Packages.npm.distTags.list,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "read", { authenticateNonPublic: true });
        const { rows, tags } = await versionsOf(access.project.id, ctx.params.package_name);
        if (!rows.length) throw notFound("Package");
        return distTags(rows, tags);
      },
      { visibility: "published" },
    ),

    /** PUT …/dist-tags/:tag with the version as a JSON string body: 204. */
    "npm.distTags.set": implement(
      Packages.npm.distTags.set,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "publish");
        const raw = (await readCapped(uploadBody(ctx), 64 * 1024)).toString("utf8").trim();
        let version: unknown = raw;
        try {
          version = JSON.parse(raw);
        } catch {
          /* a bare version */
        }
        if (typeof version !== "string" || !version) throw missing("Version");
        const [pkg] = await kit.db
          .select()
          .from(packages)
          .where(and(eq(packages.projectId, access.project.id), eq(packages.packageType, "npm"), eq(packages.name, ctx.params.package_name), eq(packages.version, version), inArray(packages.status, [...INSTALLABLE_STATUSES])))
          .limit(1);
        if (!pkg) throw notFound("Package");
        await kit.db.transaction((tx) => setTag(tx, pkg, ctx.params.tag));
        return null;
      },
      { visibility: "published" },
    ),

    "npm.distTags.remove": implement(
      Packages.npm.distTags.remove,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "delete");
        const { rows } = await versionsOf(access.project.id, ctx.params.package_name);
        const ids = rows.map((r) => r.id);
        const gone = ids.length ? await kit.db.delete(packageTags).where(and(inArray(packageTags.packageId, ids), eq(packageTags.name, ctx.params.tag))).returning({ id: packageTags.id }) : [];
        if (!gone.length) throw notFound("Package tag");
        return null;
      },
      { visibility: "published" },
    ),
  };
}
