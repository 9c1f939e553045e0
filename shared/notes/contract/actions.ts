/** The notes, discussions and resource state events actions of a noteable-owning service. */
import { actionContract, noContent, pageOf } from "@collab/core";
import { UserRefSchema } from "@collab/accounts-contract";
import { z } from "zod";
import { DiscussionSchema, IterationEventSchema, LabelEventSchema, MilestoneEventSchema, NoteSchema, StateEventSchema, WeightEventSchema } from "./entities";
import { noteParams, type NoteablePathParam } from "./params";

/** The noteable's iid param of each service that mounts the shared notes. */
const PATH_PARAMS: Record<string, NoteablePathParam> = { issues: "issue_iid", "merge-requests": "merge_request_iid" };

/**
 * The contract entries of the shared notes actions of `service` (`<service>.notes.list` …), the
 * noteable named by `pathParam` in the routes (by default the service's: issue_iid,
 * merge_request_iid). `discussions.resolve` is for resolvable kinds only (merge requests).
 */
export function noteContract(service: string, pathParam?: NoteablePathParam) {
  const S = service;
  // Built on first use (the entries' input thunks), so that routes need no known path param.
  let params: ReturnType<typeof noteParams<NoteablePathParam>> | undefined;
  const P = () => (params ??= noteParams(pathParam ?? pathParamOf(service)));
  return {
    notes: {
      list: actionContract(`${S}.notes.list`, { input: () => P().ListNotes, output: () => pageOf(NoteSchema), idempotent: true }),
      get: actionContract(`${S}.notes.get`, { input: () => P().NoteRef, output: () => NoteSchema, idempotent: true }),
      create: actionContract(`${S}.notes.create`, { input: () => P().CreateNote, output: () => NoteSchema }),
      update: actionContract(`${S}.notes.update`, { input: () => P().UpdateNote, output: () => NoteSchema }),
      delete: actionContract(`${S}.notes.delete`, { input: () => P().NoteRef, output: noContent }),
    },
    discussions: {
      list: actionContract(`${S}.discussions.list`, { input: () => P().ListDiscussions, output: () => pageOf(DiscussionSchema), idempotent: true }),
      get: actionContract(`${S}.discussions.get`, { input: () => P().DiscussionRef, output: () => DiscussionSchema, idempotent: true }),
      create: actionContract(`${S}.discussions.create`, { input: () => P().CreateDiscussion, output: () => DiscussionSchema }),
      /** PUT …/discussions/:discussion_id: resolvable kinds only. */
      resolve: actionContract(`${S}.discussions.resolve`, { input: () => P().ResolveDiscussion, output: () => DiscussionSchema }),
      reply: actionContract(`${S}.discussions.reply`, { input: () => P().Reply, output: () => NoteSchema }),
      getNote: actionContract(`${S}.discussions.getNote`, { input: () => P().DiscussionNote, output: () => NoteSchema, idempotent: true }),
      updateNote: actionContract(`${S}.discussions.updateNote`, { input: () => P().UpdateDiscussionNote, output: () => NoteSchema }),
      deleteNote: actionContract(`${S}.discussions.deleteNote`, { input: () => P().DiscussionNote, output: noContent }),
    },
    stateEvents: {
      list: actionContract(`${S}.stateEvents.list`, { input: () => P().ListStateEvents, output: () => pageOf(StateEventSchema), idempotent: true }),
      get: actionContract(`${S}.stateEvents.get`, { input: () => P().StateEventRef, output: () => StateEventSchema, idempotent: true }),
    },
    labelEvents: {
      list: actionContract(`${S}.labelEvents.list`, { input: () => P().ListResourceEvents, output: () => pageOf(LabelEventSchema), idempotent: true }),
      get: actionContract(`${S}.labelEvents.get`, { input: () => P().LabelEventRef, output: () => LabelEventSchema, idempotent: true }),
    },
    milestoneEvents: {
      list: actionContract(`${S}.milestoneEvents.list`, { input: () => P().ListResourceEvents, output: () => pageOf(MilestoneEventSchema), idempotent: true }),
      get: actionContract(`${S}.milestoneEvents.get`, { input: () => P().MilestoneEventRef, output: () => MilestoneEventSchema, idempotent: true }),
    },
    weightEvents: {
      list: actionContract(`${S}.weightEvents.list`, { input: () => P().ListResourceEvents, output: () => pageOf(WeightEventSchema), idempotent: true }),
      get: actionContract(`${S}.weightEvents.get`, { input: () => P().WeightEventRef, output: () => WeightEventSchema, idempotent: true }),
    },
    iterationEvents: {
      list: actionContract(`${S}.iterationEvents.list`, { input: () => P().ListResourceEvents, output: () => pageOf(IterationEventSchema), idempotent: true }),
      get: actionContract(`${S}.iterationEvents.get`, { input: () => P().IterationEventRef, output: () => IterationEventSchema, idempotent: true }),
    },
  };
}

function pathParamOf(service: string): NoteablePathParam {
  const param = PATH_PARAMS[service];
  if (!param) throw new Error(`noteContract: no noteable path param known for ${service}; pass it`);
  return param;
}

/** Every entry of noteContract. */
export type NoteContract = ReturnType<typeof noteContract>;

/**
 * The entries a service implements and mounts: all of noteContract, `discussions.resolve` only for
 * a resolvable kind (the issues contract leaves it out), `stateEvents` only for a kind with states
 * (snippets have none).
 */
export interface NoteEntries {
  notes: NoteContract["notes"];
  discussions: Omit<NoteContract["discussions"], "resolve"> & { resolve?: NoteContract["discussions"]["resolve"] };
  stateEvents?: NoteContract["stateEvents"];
  /** The resource event families the kind records (resource_label_events …), each optional. */
  labelEvents?: NoteContract["labelEvents"];
  milestoneEvents?: NoteContract["milestoneEvents"];
  weightEvents?: NoteContract["weightEvents"];
  iterationEvents?: NoteContract["iterationEvents"];
}

/**
 * The discussions entries alone, unresolvable, for a noteable that has no notes API of its own
 * (commits: `<service>.discussions.*`, e.g. service "merge-requests.commits").
 */
export const discussionContract = (service: string, pathParam: NoteablePathParam): NoteEntries["discussions"] => unresolvableNoteContract(service, pathParam).discussions;

/** noteContract without `discussions.resolve`, for a kind whose threads are not resolvable. */
export function unresolvableNoteContract(service: string, pathParam?: NoteablePathParam): NoteEntries & Omit<NoteContract, "notes" | "discussions"> {
  const { discussions: all, ...rest } = noteContract(service, pathParam);
  const discussions: NoteEntries["discussions"] = { ...all };
  delete discussions.resolve;
  return { ...rest, discussions };
}

/** The entries of the resource event families `families` only (a kind records just some: an epic only labels). */
export function withResourceEvents<E extends NoteEntries, K extends ResourceEventKey>(entries: E, families: readonly K[]): Omit<E, Exclude<ResourceEventKey, K>> {
  const out: NoteEntries = { ...entries };
  for (const key of RESOURCE_EVENT_KEYS) if (!(families as readonly ResourceEventKey[]).includes(key)) delete out[key];
  return out as unknown as Omit<E, Exclude<ResourceEventKey, K>>;
}

export const RESOURCE_EVENT_KEYS = ["labelEvents", "milestoneEvents", "weightEvents", "iterationEvents"] as const;
export type ResourceEventKey = (typeof RESOURCE_EVENT_KEYS)[number];

/** Notes and discussions only (no resolving, no state events): a kind without states, such as snippets. */
export function statelessNoteContract(service: string, pathParam: NoteablePathParam): NoteEntries {
  const { notes, discussions } = unresolvableNoteContract(service, pathParam);
  return { notes, discussions };
}

/**
 * GET …/participants of a noteable (GitLab's visible_participants, as UserBasic): `<service>.participants`.
 * `paged`: the merge requests API pages them, the issues API answers them all.
 */
export function participantsContract(service: string, o: { paged: boolean }, pathParam?: NoteablePathParam) {
  let params: ReturnType<typeof noteParams<NoteablePathParam>> | undefined;
  const P = () => (params ??= noteParams(pathParam ?? pathParamOf(service)));
  return o.paged
    ? actionContract(`${service}.participants`, { input: () => P().PagedParticipants, output: () => pageOf(UserRefSchema), idempotent: true })
    : actionContract(`${service}.participants`, { input: () => P().Participants, output: () => z.array(UserRefSchema), idempotent: true });
}
export type ParticipantsEntry = ReturnType<typeof participantsContract>;
