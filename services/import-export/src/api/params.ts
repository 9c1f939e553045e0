import { gId, gString } from "@collab/core";
import { z } from "zod";

/** The group in a path: numeric id or URL-decoded full path. */
export const GroupRefParams = z.object({ id: gString().refine((s) => s.length > 0, { error: "is invalid" }) });

/**
 * A file part of a multipart body, as the gateway hands it to routes that declare it
 * (RouteDef.files): its name, type, size and bytes in base64 (binary-safe on the JSON bus).
 * A plain text field of the same name is not a file: "file is invalid", as Grape's WorkhorseFile.
 */
export const UploadedFile = z.object(
  {
    filename: z.string(),
    content_type: z.string().nullable().optional(),
    size: z.number().int().min(0),
    data: z.string(),
  },
  { error: "is invalid" },
);
export type UploadedFile = z.output<typeof UploadedFile>;

/** POST /groups/import, in GitLab's declaration order (path, name, file, parent_id). */
export const ImportParams = z.object({
  path: gString(),
  name: gString(),
  file: UploadedFile,
  parent_id: gId().optional(),
});
export type ImportParams = z.output<typeof ImportParams>;
