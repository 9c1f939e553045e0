import { gFile, gId, gString, type UploadedFileParam } from "@collab/core";
import { z } from "zod";

/** The group in a path: numeric id or URL-decoded full path. */
export const GroupRefParams = z.object({ id: gString().refine((s) => s.length > 0, { error: "is invalid" }) });

/** A file part of a multipart body (RouteDef.files), as @collab/core's gFile describes it. */
export const UploadedFile = gFile();
export type UploadedFile = UploadedFileParam;

/** POST /groups/import, in GitLab's declaration order (path, name, file, parent_id). */
export const ImportParams = z.object({
  path: gString(),
  name: gString(),
  file: UploadedFile,
  parent_id: gId().optional(),
});
export type ImportParams = z.output<typeof ImportParams>;
