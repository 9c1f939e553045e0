/** The epics API's actions (Premium and Ultimate): GitLab's ee/lib/api/epics.rb. */
import { actionContract, noContent, pageOf } from "@collab/core";
import { UserRefSchema } from "@collab/accounts-contract";
import { LabelBasicSchema } from "@collab/namespaces-contract";
import { z } from "zod";
import { ChildEpicParams, CreateChildEpicParams, CreateEpicParams, EpicRefParams, ListEpicsParams, UpdateEpicParams } from "./params/epics";

const int = () => z.number().int();
const date = () => z.string().nullable();

/** An epic as the epics API presents it (GitLab's EE::API::Entities::Epic). */
export const EpicSchema = z.object({
  id: int(),
  iid: int(),
  color: z.string(),
  text_color: z.string(),
  group_id: int(),
  parent_id: int().nullable(),
  parent_iid: int().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  confidential: z.boolean(),
  author: UserRefSchema.nullable(),
  start_date: date(),
  start_date_is_fixed: z.boolean(),
  start_date_fixed: date(),
  start_date_from_milestones: date(),
  start_date_from_inherited_source: date(),
  end_date: date(),
  due_date: date(),
  due_date_is_fixed: z.boolean(),
  due_date_fixed: date(),
  due_date_from_milestones: date(),
  due_date_from_inherited_source: date(),
  state: z.enum(["opened", "closed"]),
  web_edit_url: z.string(),
  web_url: z.string(),
  references: z.object({ short: z.string(), relative: z.string(), full: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
  labels: z.union([z.array(z.string()), z.array(LabelBasicSchema)]),
  upvotes: int(),
  downvotes: int(),
  subscribed: z.boolean().optional(),
  _links: z.object({ self: z.string(), epic_issues: z.string(), group: z.string(), parent: z.string().nullable() }),
  imported: z.boolean(),
  imported_from: z.string(),
});
export type Epic = z.output<typeof EpicSchema>;

/** A child epic just created under its parent (GitLab's EE::API::Entities::LinkedEpic). */
export const LinkedEpicSchema = z.object({
  id: int(),
  iid: int(),
  title: z.string(),
  group_id: int(),
  parent_id: int().nullable(),
  has_children: z.boolean(),
  has_issues: z.boolean(),
  reference: z.string(),
  url: z.string(),
  relation_url: z.string(),
});

/** Child epics (GitLab's ee/lib/api/epic_links.rb): adding and creating them is Ultimate. */
export const EpicLinksActions = {
  /** GET /groups/:id/epics/:epic_iid/epics. */
  list: actionContract("issues.epicLinks.list", { input: () => EpicRefParams, output: () => z.array(EpicSchema), idempotent: true }),
  /** POST /groups/:id/epics/:epic_iid/epics/:child_epic_id: the child, moved under this epic. */
  assign: actionContract("issues.epicLinks.assign", { input: () => ChildEpicParams, output: () => EpicSchema }),
  /** POST /groups/:id/epics/:epic_iid/epics: a new child. */
  create: actionContract("issues.epicLinks.create", { input: () => CreateChildEpicParams, output: () => LinkedEpicSchema }),
  /** DELETE /groups/:id/epics/:epic_iid/epics/:child_epic_id: the child, without a parent (200). */
  remove: actionContract("issues.epicLinks.remove", { input: () => ChildEpicParams, output: () => EpicSchema }),
};

export const EpicsActions = {
  /** GET /groups/:id/epics. */
  list: actionContract("issues.epics.list", { input: () => ListEpicsParams, output: () => pageOf(EpicSchema), idempotent: true }),
  /** GET /groups/:id/epics/:epic_iid. */
  get: actionContract("issues.epics.get", { input: () => EpicRefParams, output: () => EpicSchema, idempotent: true }),
  /** POST /groups/:id/epics. */
  create: actionContract("issues.epics.create", { input: () => CreateEpicParams, output: () => EpicSchema }),
  /** PUT /groups/:id/epics/:epic_iid. */
  update: actionContract("issues.epics.update", { input: () => UpdateEpicParams, output: () => EpicSchema }),
  /** DELETE /groups/:id/epics/:epic_iid (204; Owners). */
  delete: actionContract("issues.epics.delete", { input: () => EpicRefParams, output: noContent }),
};
