import { actionsOf, badRequest, forbidden, implement, parseDuration, requireCaller, timeStats, validationFailed, type Ctx, type ImplementedAction } from "@collab/core";
import type { Announcement, ServiceKit } from "@collab/db";
import type { TimeTrackingEntries } from "@collab/notes-contract";
import type { ActionSchema } from "moleculer";
import { assertNoteableWritable, notesContext, type NoteableParams } from "../actions/context";
import type { LoadedNoteable, NoteableKind, NoteableType } from "../kind";
import { MAX_TIME_ESTIMATE, setTimeEstimate, spendTime, type TimeColumns, type TimeTarget } from "./time-tracking";

/** An issuable kind with time tracking (issues, merge requests): where its times live and who may change them. */
export interface TimeTrackableKind<L extends LoadedNoteable> {
  notes: NoteableKind<L>;
  columns: TimeColumns;
  timelogColumn: TimeTarget["timelogColumn"];
  /** The loaded issuable's estimate and total spent, in seconds. */
  times(l: L): { estimate: number; spent: number };
  /** GitLab's admin_issue / admin_merge_request: the writes answer 403 without it. */
  canAdmin(l: L): boolean;
  /** The issuable's update event (`changes`: time_estimate, total_time_spent), written with the change. */
  updated(l: L, actorId: number, changes: string[]): Announcement;
}

/**
 * POST …/time_estimate, …/reset_time_estimate, …/add_spent_time, …/reset_spent_time and GET
 * …/time_stats of an issuable, as GitLab's TimeTrackingEndpoints: each answers the time stats.
 */
export function timeTrackingActions<L extends LoadedNoteable>(kit: ServiceKit, k: TimeTrackableKind<L>, entries: TimeTrackingEntries): Record<string, ActionSchema> {
  const kind = k.notes;
  const c = notesContext(kit, kind);
  const service = kind.events.noteCreated.name.split(".")[0];

  const target = (l: L): TimeTarget => ({
    noteable: { type: kind.noteableType as NoteableType, id: l.noteable.id!, projectId: l.noteable.projectId! },
    timelogColumn: k.timelogColumn,
  });

  /** A readable issuable the caller may administer (403 otherwise) in a writable project. */
  async function administered(ctx: Ctx<NoteableParams>) {
    const caller = requireCaller(ctx);
    const l = await c.load(ctx);
    if (!k.canAdmin(l)) throw forbidden();
    assertNoteableWritable(l);
    return { l, caller };
  }

  async function estimate(ctx: Ctx<NoteableParams>, seconds: number) {
    const { l, caller } = await administered(ctx);
    const { estimate: old, spent } = k.times(l);
    if (seconds !== old)
      await kit.events.transact(
        (tx) => setTimeEstimate(tx, kind.tables, k.columns, target(l), seconds, caller.id),
        () => [k.updated(l, caller.id, ["time_estimate"])],
      );
    return timeStats(seconds, spent);
  }

  async function spend(ctx: Ctx<NoteableParams>, change: { delta: number; summary?: string } | "reset") {
    const { l, caller } = await administered(ctx);
    const { estimate: est, spent } = k.times(l);
    if (change === "reset" && spent === 0) return timeStats(est, 0);
    const total = await kit.events.transact(
      (tx) => spendTime(tx, kind.tables, k.columns, target(l), change, caller.id),
      () => [k.updated(l, caller.id, ["total_time_spent"])],
    );
    return timeStats(est, total);
  }

  const actions: ImplementedAction[] = [
    implement(
      entries.stats,
      async (ctx) => {
        const { estimate: est, spent } = k.times(await c.load(ctx));
        return timeStats(est, spent);
      },
      { visibility: "published" },
    ),
    implement(
      entries.setEstimate,
      async (ctx) => {
        const seconds = parseDuration(ctx.params.duration, { keepZero: true });
        if (seconds === null || seconds < 0) throw badRequest("Time estimate must have a valid format and be greater than or equal to zero.");
        return estimate(ctx, Math.min(seconds, MAX_TIME_ESTIMATE));
      },
      { visibility: "published" },
    ),
    implement(entries.resetEstimate, (ctx) => estimate(ctx, 0), { visibility: "published" }),
    implement(
      entries.addSpent,
      async (ctx) => {
        const delta = parseDuration(ctx.params.duration);
        // GitLab: a duration it cannot read makes a timelog without time, which its validation refuses.
        if (delta === null) throw validationFailed({ "timelogs.time_spent": ["can't be blank"] });
        return spend(ctx, { delta, summary: ctx.params.summary });
      },
      { visibility: "published" },
    ),
    implement(entries.resetSpent, (ctx) => spend(ctx, "reset"), { visibility: "published" }),
  ];
  return actionsOf(service, actions);
}
