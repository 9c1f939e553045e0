/** Actions of the integrations service: the routes' actions and those other services call (see index.ts). */
import { actionContract, noContent } from "@collab/core";
import { z } from "zod";
import { EVENT_KINDS, type EventKind } from "./catalog/events";
import { slugsFor } from "./catalog/kinds";
import { HooksActions } from "./hooks/actions";
import { LevelRef, SlugRef } from "./params/integrations";

/** The event booleans every entity shows; vulnerability_events only on the enterprise edition. */
const eventFlagsShape = Object.fromEntries(EVENT_KINDS.filter((k) => k !== "vulnerability_events").map((k) => [k, z.boolean()])) as Record<
  Exclude<EventKind, "vulnerability_events">,
  z.ZodBoolean
>;

/**
 * GitLab's Entities::IntegrationBasic, the list item: the level's own row's id and timestamps (the
 * ancestor's when the level has none), the settings' event flags, whether they are inherited.
 */
export const IntegrationBasicSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  active: z.boolean(),
  ...eventFlagsShape,
  comment_on_event_enabled: z.boolean(),
  inherited: z.boolean(),
  /** Enterprise editions (Premium, Ultimate) only. */
  vulnerability_events: z.boolean().optional(),
});
export type IntegrationBasicEntity = z.output<typeof IntegrationBasicSchema>;

/** Entities::Integration: the list item with the kind's `properties` (its fields' values or defaults), secrets left out. */
export const IntegrationSchema = IntegrationBasicSchema.extend({
  properties: z.record(z.string(), z.union([z.string(), z.boolean(), z.number(), z.array(z.string()), z.null()])),
});
export type IntegrationEntity = z.output<typeof IntegrationSchema>;

export const IntegrationsActions = {
  ...HooksActions,
  project: {
    /** GET /projects/:id/integrations: the active integrations, own or inherited. */
    list: actionContract("integrations.project.list", { input: () => LevelRef, output: () => z.array(IntegrationBasicSchema), idempotent: true }),
    /** GET /projects/:id/integrations/:slug */
    get: actionContract("integrations.project.get", { input: () => SlugRef(slugsFor("project")), output: () => IntegrationSchema, idempotent: true }),
    /** PUT /projects/:id/integrations/:slug: sets it up (the kind's own params are parsed by the action); the integration. */
    setUp: actionContract("integrations.project.setUp", { input: () => SlugRef(slugsFor("project")), output: () => IntegrationSchema }),
    /** DELETE /projects/:id/integrations/:slug: back to its defaults, inactive; 204. */
    reset: actionContract("integrations.project.reset", { input: () => SlugRef(slugsFor("project")), output: () => noContent() }),
  },
  group: {
    /** GET /groups/:id/integrations: the active integrations, own or inherited. */
    list: actionContract("integrations.group.list", { input: () => LevelRef, output: () => z.array(IntegrationBasicSchema), idempotent: true }),
    /** GET /groups/:id/integrations/:slug */
    get: actionContract("integrations.group.get", { input: () => SlugRef(slugsFor("group")), output: () => IntegrationSchema, idempotent: true }),
    /** PUT /groups/:id/integrations/:slug: sets it up (the kind's own params are parsed by the action); the integration. */
    setUp: actionContract("integrations.group.setUp", { input: () => SlugRef(slugsFor("group")), output: () => IntegrationSchema }),
    /** DELETE /groups/:id/integrations/:slug: back to its defaults, inactive; 204. */
    reset: actionContract("integrations.group.reset", { input: () => SlugRef(slugsFor("group")), output: () => noContent() }),
  },
  trackers: {
    /**
     * Bus only: the project's active external issue tracker (own or inherited; GitLab's
     * Project#external_issue_tracker), and the external issues the texts' closing statements name by
     * its reference pattern (only Jira's support cross references: ReferenceExtractor#issues).
     */
    closingReferences: actionContract("integrations.trackers.closingReferences", {
      input: () => z.object({ project_id: z.number().int(), group_ids: z.array(z.number().int()).max(1000), texts: z.array(z.string().max(1_000_000).nullable()).max(10) }),
      output: () => z.object({ tracker: z.string().nullable(), issues: z.array(z.string()) }),
      idempotent: true,
    }),
  },
  deliveries: {
    /** Bus only: one pass of the delivery worker now (tests tick deterministically): the deliveries it attempted. */
    tick: actionContract("integrations.deliveries.tick", {
      input: () => z.object({}),
      output: () => z.object({ attempted: z.number().int() }),
    }),
  },
};
