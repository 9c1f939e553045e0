/** Actions of the snippets service: the routes' actions (see index.ts). */
import { actionContract, fileOf, noContent, pageOf } from "@collab/core";
import { awardEmojiContract, statelessNoteContract } from "@collab/notes-contract";
import { SnippetSchema, UserAgentDetailSchema } from "./entities";
import {
  CreatePersonalSnippetParams,
  CreateProjectSnippetParams,
  ListPersonalSnippetsParams,
  ListProjectSnippetsParams,
  PersonalSnippetFileRef,
  PersonalSnippetRef,
  ProjectSnippetFileRef,
  ProjectSnippetRef,
  UpdatePersonalSnippetParams,
  UpdateProjectSnippetParams,
} from "./params";
import { SnippetStorageActions } from "./storage";

const S = "snippets";

export const SnippetsActions = {
  /** Notes and discussions on project snippets: the shared notes' (@collab/notes-contract), by snippet id; no state events. */
  ...statelessNoteContract(S, "snippet_id"),
  /** Emoji reactions on project snippets and their notes: the shared award emoji's (@collab/notes-contract). */
  awardEmoji: awardEmojiContract(S, "snippet_id"),
  /** For the admin service's storage moves (no HTTP route). */
  storage: SnippetStorageActions,
  /** /projects/:id/snippets… */
  project: {
    list: actionContract(`${S}.project.list`, { input: () => ListProjectSnippetsParams, output: () => pageOf(SnippetSchema), idempotent: true }),
    get: actionContract(`${S}.project.get`, { input: () => ProjectSnippetRef, output: () => SnippetSchema, idempotent: true }),
    create: actionContract(`${S}.project.create`, { input: () => CreateProjectSnippetParams, output: () => SnippetSchema }),
    update: actionContract(`${S}.project.update`, { input: () => UpdateProjectSnippetParams, output: () => SnippetSchema }),
    delete: actionContract(`${S}.project.delete`, { input: () => ProjectSnippetRef, output: noContent }),
    /** All files' content, as GitLab's raw (the first file's). */
    raw: actionContract(`${S}.project.raw`, { input: () => ProjectSnippetRef, output: () => fileOf(), idempotent: true }),
    fileRaw: actionContract(`${S}.project.fileRaw`, { input: () => ProjectSnippetFileRef, output: () => fileOf(), idempotent: true }),
    userAgentDetail: actionContract(`${S}.project.userAgentDetail`, { input: () => ProjectSnippetRef, output: () => UserAgentDetailSchema, idempotent: true }),
  },
  /** /snippets… (personal snippets; lists include the caller's project snippets as GitLab's). */
  personal: {
    mine: actionContract(`${S}.personal.mine`, { input: () => ListPersonalSnippetsParams, output: () => pageOf(SnippetSchema), idempotent: true }),
    public: actionContract(`${S}.personal.public`, { input: () => ListPersonalSnippetsParams, output: () => pageOf(SnippetSchema), idempotent: true }),
    all: actionContract(`${S}.personal.all`, { input: () => ListPersonalSnippetsParams, output: () => pageOf(SnippetSchema), idempotent: true }),
    get: actionContract(`${S}.personal.get`, { input: () => PersonalSnippetRef, output: () => SnippetSchema, idempotent: true }),
    create: actionContract(`${S}.personal.create`, { input: () => CreatePersonalSnippetParams, output: () => SnippetSchema }),
    update: actionContract(`${S}.personal.update`, { input: () => UpdatePersonalSnippetParams, output: () => SnippetSchema }),
    delete: actionContract(`${S}.personal.delete`, { input: () => PersonalSnippetRef, output: noContent }),
    raw: actionContract(`${S}.personal.raw`, { input: () => PersonalSnippetRef, output: () => fileOf(), idempotent: true }),
    fileRaw: actionContract(`${S}.personal.fileRaw`, { input: () => PersonalSnippetFileRef, output: () => fileOf(), idempotent: true }),
    userAgentDetail: actionContract(`${S}.personal.userAgentDetail`, { input: () => PersonalSnippetRef, output: () => UserAgentDetailSchema, idempotent: true }),
  },
};
