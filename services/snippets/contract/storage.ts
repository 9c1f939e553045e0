/**
 * What the admin service's storage moves ask of snippets: the same four operations namespaces
 * answers for projects and groups (Namespaces.storage), for `kind: "snippet"`.
 */
import { actionContract, gString } from "@collab/core";
import { z } from "zod";
import { SnippetSchema } from "./entities";

const kind = () => z.literal("snippet");
const ids = () => z.array(z.number().int().positive()).max(10_000);

/** What a snippet's storage move embeds (GitLab's Entities::BasicSnippet). */
export const StorageMoveSnippetSchema = SnippetSchema.pick({
  id: true,
  title: true,
  description: true,
  visibility: true,
  created_at: true,
  updated_at: true,
  project_id: true,
  web_url: true,
  raw_url: true,
  ssh_url_to_repo: true,
  http_url_to_repo: true,
});
export type StorageMoveSnippet = z.output<typeof StorageMoveSnippetSchema>;

export const SnippetStorageActions = {
  /** The storage and read-only flag of one snippet (404 Snippet Not Found for an unknown one). */
  state: actionContract("snippets.storage.state", {
    input: () => z.object({ kind: kind(), ref: gString() }),
    output: () => z.object({ id: z.number(), repository_storage: z.string(), repository_read_only: z.boolean() }),
    idempotent: true,
  }),
  /** Ids of the writable snippets on a storage (bulk moves). */
  writableIds: actionContract("snippets.storage.writableIds", { input: () => z.object({ kind: kind(), storage: z.string() }), output: () => ids(), idempotent: true }),
  /** Sets the read-only flag (and the new storage when a move is done); answers the ids actually changed. */
  setState: actionContract("snippets.storage.setState", {
    input: () =>
      z.object({ kind: kind(), ids: ids(), read_only: z.boolean(), storage: z.string().optional(), expect_writable: z.boolean().default(false), locked_on: z.string().optional() }),
    output: () => ids(),
  }),
  /** The snippets storage moves embed. */
  containers: actionContract("snippets.storage.containers", { input: () => z.object({ kind: kind(), ids: ids() }), output: () => z.array(StorageMoveSnippetSchema), idempotent: true }),
};
