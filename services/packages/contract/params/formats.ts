import { gEnum, gString } from "@collab/core";
import { z } from "zod";

/** Generic package names and file names (GitLab's maven_file_name_regex), versions (maven_version_regex). */
export const GENERIC_NAME = /^[A-Za-z0-9._+-]+$/;
export const GENERIC_VERSION = /^(?!.*\.\.)[\w+.-]+$/;

/**
 * Grape's `file_path: true`: no traversal (`..` as a path segment, or its encodings) and no
 * absolute path; such a value is "<param> is invalid" like a regexp mismatch.
 */
export function safeFilePath(value: string): boolean {
  if (value.includes("\0")) return false;
  const decoded = (() => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  })();
  if (decoded.startsWith("/")) return false;
  return !decoded.split(/[\\/]/).some((seg) => seg === "..");
}

const pathParam = (re: RegExp) =>
  gString()
    .refine((s) => s.length <= 255 && re.test(s) && safeFilePath(s), { error: "is invalid" });

/** Request headers a streamed upload's action receives (RouteDef.streamBody). */
export const UploadHeaders = z
  .object({ "content-type": z.string().optional(), "content-length": z.string().optional(), "npm-command": z.string().optional() })
  .partial()
  .optional();

const projectRef = z.union([z.string(), z.number()]);

/**
 * PUT/GET /projects/:id/packages/generic/:package_name/:package_version/*file_name. A file name
 * with slashes is a path and a name (GitLab 17.x's `(*path/):file_name`): the name must match the
 * file-name rule, the path segments the path rule, and the stored file name is the whole path.
 */
export const GenericFileRef = z.object({
  id: projectRef,
  package_name: pathParam(GENERIC_NAME),
  package_version: gString().refine((s) => s.length <= 255 && GENERIC_VERSION.test(s), { error: "is invalid" }),
  file_name: z.preprocess(
    (v) => (Array.isArray(v) ? v.join("/") : v),
    gString().refine((s) => {
      if (s.length === 0 || s.length > 1024 || !safeFilePath(s)) return false;
      const parts = s.split("/");
      const name = parts.pop()!;
      return GENERIC_NAME.test(name) && parts.every((p) => /^[\w.+-]+$/.test(p));
    }, { error: "is invalid" }),
  ),
});

export const GenericUpload = GenericFileRef.extend({
  status: gEnum(["default", "hidden"] as const).optional(),
  select: gEnum(["package_file"] as const).optional(),
  headers: UploadHeaders,
});

/** npm package names (GitLab's npm_package_name_regex): an optional @scope/ then the name. */
export const NPM_NAME = /^(?:@([A-Za-z0-9_][A-Za-z0-9_.-]*)\/)?[-+._a-zA-Z0-9]+$/;
/** npm versions: SemVer (GitLab's semver_regex). */
export const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:\d*[a-zA-Z-][0-9a-zA-Z-]*|[1-9]\d*|0)(?:\.(?:\d*[a-zA-Z-][0-9a-zA-Z-]*|[1-9]\d*|0))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

const npmName = z.preprocess((v) => (Array.isArray(v) ? v.join("/") : v), gString().refine((s) => s.length > 0 && s.length <= 255 && safeFilePath(s.replace(/^@/, "")), { error: "is invalid" }));

export const NpmPackageRef = z.object({ id: projectRef, package_name: npmName });
export const NpmPublish = NpmPackageRef.extend({ headers: UploadHeaders });
export const NpmTarballRef = NpmPackageRef.extend({
  file_name: z.preprocess((v) => (Array.isArray(v) ? v.join("/") : v), gString().refine((s) => s.length > 0 && s.length <= 1024, { error: "is invalid" })),
});
export const NpmTagRef = NpmPackageRef.extend({ tag: gString().refine((s) => s.length > 0 && s.length <= 255, { error: "is invalid" }) });
export const NpmTagSet = NpmTagRef.extend({ headers: UploadHeaders });

/** The publish document npm sends (only what is read of it). */
export const NpmDocument = z.object({
  versions: z.record(z.string(), z.record(z.string(), z.unknown())),
  "dist-tags": z.record(z.string(), z.string()).optional(),
  _attachments: z.record(z.string(), z.object({ data: z.string().optional(), length: z.number().optional() }).passthrough()).optional(),
});
