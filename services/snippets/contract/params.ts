/** The params of the snippets routes (GitLab's lib/api/project_snippets.rb and snippets.rb, helpers/snippets_helpers.rb). */
import { gArray, gDateTime, gEnum, gId, gString, mutuallyExclusive, paginationParams } from "@collab/core";
import { z } from "zod";

export const SNIPPET_VISIBILITIES = ["private", "internal", "public"] as const;
export type SnippetVisibility = (typeof SNIPPET_VISIBILITIES)[number];

/** A file path as GitLab's snippet repositories accept it: not blank, no traversal. */
const filePath = () =>
  gString().refine((s) => s.trim() !== "" && !s.split("/").includes("..") && !s.startsWith("/"), { error: "is invalid" });

const visibility = () => gEnum(SNIPPET_VISIBILITIES);

/** `files[]` of a create: each file's path and content. */
const CreateFile = z.object({ file_path: filePath(), content: gString() });

/** `files[]` of an update: what happens to one file (GitLab's Snippets::UpdateService file actions). */
const UpdateFile = z
  .object({
    action: gEnum(["create", "update", "delete", "move"] as const),
    file_path: filePath().optional(),
    previous_path: filePath().optional(),
    content: gString().optional(),
  })
  .superRefine((f, c) => {
    if (f.action !== "move" && !f.file_path) c.addIssue({ code: "custom", path: ["file_path"], message: "is missing" });
    if (f.action === "move" && !f.previous_path) c.addIssue({ code: "custom", path: ["previous_path"], message: "is missing" });
    if (f.action === "create" && f.content === undefined) c.addIssue({ code: "custom", path: ["content"], message: "is missing" });
  });
export type SnippetFileAction = z.output<typeof UpdateFile>;

const createShape = {
  title: gString().refine((s) => s.trim() !== "", { error: "is empty" }),
  description: gString().optional(),
  files: gArray(CreateFile).optional(),
  file_name: filePath().optional(),
  content: gString().optional(),
};

/** The request's user agent and IP, set by the gateway (RouteDef.clientInfo), kept for user_agent_detail. */
const clientInfo = z.object({ user_agent: z.string(), ip_address: z.string() }).optional();

/** Either files[] or the single-file file_name + content, never both (Grape's mutually_exclusive and all_or_none_of). */
function singleOrFiles(v: { files?: unknown[]; file_name?: string; content?: string }, c: z.core.$RefinementCtx) {
  if (v.files !== undefined && (v.content !== undefined || v.file_name !== undefined))
    c.addIssue({ code: "custom", path: [], message: "files, content are mutually exclusive" });
  else if (v.files === undefined && v.content === undefined) c.addIssue({ code: "custom", path: [], message: "files, content are missing, exactly one parameter must be provided" });
  else if (v.files !== undefined && v.files.length === 0) c.addIssue({ code: "custom", path: ["files"], message: "is empty" });
}

const updateShape = {
  title: gString().refine((s) => s.trim() !== "", { error: "is empty" }).optional(),
  description: gString().optional(),
  visibility: visibility().optional(),
  files: gArray(UpdateFile).optional(),
  file_name: filePath().optional(),
  content: gString().optional(),
};

function anyUpdate(raw: unknown, c: z.core.$RefinementCtx) {
  const v = raw as Record<string, unknown>;
  if (!Object.keys(updateShape).some((k) => v[k] !== undefined))
    c.addIssue({ code: "custom", path: [], message: "title, description, visibility, files, file_name, content are missing, at least one parameter must be provided" });
  mutuallyExclusive<Record<string, unknown>>("files", "content")(v, c as z.core.$RefinementCtx<Record<string, unknown>>);
}

const project = { id: gString() };
const snippetId = { snippet_id: gId() };
const fileRef = { ref: gString(), file_path: gString() };

export const ListProjectSnippetsParams = z.object({ ...project, ...paginationParams });
export const ProjectSnippetRef = z.object({ ...project, ...snippetId });
export const ProjectSnippetFileRef = z.object({ ...project, ...snippetId, ...fileRef });
/** Project snippets need their visibility (GitLab `requires :visibility`). */
export const CreateProjectSnippetParams = z.object({ ...project, ...createShape, visibility: visibility(), client_info: clientInfo }).superRefine(singleOrFiles);
export const UpdateProjectSnippetParams = z.object({ ...project, ...snippetId, ...updateShape }).superRefine(anyUpdate);

export const ListPersonalSnippetsParams = z.object({ ...paginationParams, created_after: gDateTime().optional(), created_before: gDateTime().optional() });
export const PersonalSnippetRef = z.object({ id: gId() });
export const PersonalSnippetFileRef = z.object({ id: gId(), ...fileRef });
/** Personal snippets default to internal (GitLab's snippets.rb). */
export const CreatePersonalSnippetParams = z.object({ ...createShape, visibility: visibility().default("internal"), client_info: clientInfo }).superRefine(singleOrFiles);
export const UpdatePersonalSnippetParams = z.object({ id: gId(), ...updateShape }).superRefine(anyUpdate);

export type CreateSnippetInput = z.output<typeof CreatePersonalSnippetParams>;
export type UpdateSnippetInput = Omit<z.output<typeof UpdatePersonalSnippetParams>, "id">;
