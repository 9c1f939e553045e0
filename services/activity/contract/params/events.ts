import { gDate, gEnum, gString, paginationParams, gSort } from "@collab/core";
import { z } from "zod";

/** Event.actions: the `action` filter's values (Grape rejects any other). */
export const EVENT_ACTIONS = ["created", "updated", "closed", "reopened", "pushed", "commented", "merged", "joined", "left", "destroyed", "expired", "approved"] as const;

/**
 * Event.target_types (EE adds epic): filter value → stored target_type. epic is accepted, as the
 * spec lists it, and finds nothing: the Events API excludes epic events (no new epic experience).
 */
export const TARGET_TYPES = {
  epic: "Epic",
  issue: "Issue",
  milestone: "Milestone",
  merge_request: "MergeRequest",
  note: "Note",
  project: "Project",
  snippet: "Snippet",
  user: "User",
} as const;

const eventFilters = {
  action: gEnum(EVENT_ACTIONS).optional(),
  target_type: gEnum(Object.keys(TARGET_TYPES) as [keyof typeof TARGET_TYPES, ...(keyof typeof TARGET_TYPES)[]]).optional(),
  before: gDate().optional(),
  after: gDate().optional(),
  sort: gSort("desc"),
  ...paginationParams,
};

export const EventFilterParams = z.object(eventFilters);
export type EventFilters = z.infer<typeof EventFilterParams>;

export const OwnEventsParams = z.object({ ...eventFilters, scope: gString().optional() });
export const UserEventsParams = z.object({ ...eventFilters, id: gString() });
export const ProjectEventsParams = z.object({ ...eventFilters, id: z.union([z.string(), z.number()]) });
