import { gBool, gString } from "@collab/core";
import { z } from "zod";
import { projectRef } from "./projects";

const nonBlank = () => gString().refine((s) => s.trim().length > 0, { error: "is empty" });

/** One entry of `actions[]`: recorded in nothing but the commit (there are no trees). */
const CommitAction = z.object({
  action: z.enum(["create", "delete", "move", "update", "chmod"], { error: "does not have a valid value" }),
  file_path: gString(),
  previous_path: gString().optional(),
  content: gString().optional(),
  encoding: z.enum(["text", "base64"], { error: "does not have a valid value" }).optional(),
  last_commit_id: gString().optional(),
  execute_filemode: gBool().optional(),
});

export const CreateCommitParams = z.object({
  id: projectRef(),
  branch: nonBlank(),
  commit_message: nonBlank(),
  start_branch: gString().optional(),
  start_sha: gString().optional(),
  start_project: gString().optional(),
  actions: z.array(CommitAction, { error: "is invalid" }).max(1000),
  author_email: gString().optional(),
  author_name: gString().optional(),
  stats: gBool().default(true),
  force: gBool().default(false),
});
