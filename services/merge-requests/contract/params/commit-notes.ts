/** Params of the commit comments routes (GitLab's commits API: GET/POST …/repository/commits/:sha/comments). */
import { gEnum, gInt, gString, paginationParams } from "@collab/core";
import { z } from "zod";

/** :id and :sha (a commit sha, or a branch or tag name). */
const commit = { id: gString(), sha: gString() };

export const ListCommitNotesParams = z.object({ ...commit, ...paginationParams });

/** Grape's `given :path do requires :line, :line_type end`: a line comment names its line. */
export const CreateCommitNoteParams = z
  .object({ ...commit, note: gString(), path: gString().optional(), line: gInt().optional(), line_type: gEnum(["new", "old"] as const).optional() })
  .superRefine((v, c) => {
    if (v.path !== undefined && v.line === undefined) c.addIssue({ code: "custom", path: [], message: "line is missing" });
  })
  .transform((v) => ({ ...v, line_type: v.path !== undefined ? (v.line_type ?? "new") : v.line_type }));
export type CreateCommitNoteParams = z.output<typeof CreateCommitNoteParams>;
