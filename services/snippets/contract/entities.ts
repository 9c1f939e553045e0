/** The answers of the snippets actions (GitLab's Entities::Snippet, ProjectSnippet, PersonalSnippet). */
import { UserRefSchema } from "@collab/accounts-contract";
import { z } from "zod";

export const SnippetSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  visibility: z.enum(["private", "internal", "public"]),
  author: UserRefSchema,
  created_at: z.string(),
  updated_at: z.string(),
  project_id: z.number().int().nullable(),
  web_url: z.string(),
  raw_url: z.string(),
  /** The first file's path (the single-file API's name). */
  file_name: z.string().nullable(),
  files: z.array(z.object({ path: z.string(), raw_url: z.string() })),
  ssh_url_to_repo: z.string(),
  http_url_to_repo: z.string(),
  imported: z.boolean(),
  imported_from: z.literal("none"),
  /** Administrators only. */
  repository_storage: z.string().optional(),
});
export type Snippet = z.output<typeof SnippetSchema>;

/** GitLab's Entities::UserAgentDetail: who submitted a snippet, for spam review. */
export const UserAgentDetailSchema = z.object({ user_agent: z.string(), ip_address: z.string(), akismet_submitted: z.boolean() });
