/** Time tracking of an issue or merge request (GitLab's TimeTrackingEndpoints): one action set for both. */
import { actionContract, gInt, gString, type RouteDef } from "@collab/core";
import { z } from "zod";

const int = () => z.number().int();

/** GitLab's IssuableTimeStats entity. */
export const TimeStatsSchema = z.object({
  time_estimate: int(),
  total_time_spent: int(),
  human_time_estimate: z.string().nullable(),
  human_total_time_spent: z.string().nullable(),
});

type IssuablePathParam = "issue_iid" | "merge_request_iid";

function timeParams(pathParam: IssuablePathParam) {
  const issuable = { id: gString(), [pathParam]: gInt() } as { id: ReturnType<typeof gString> } & Record<IssuablePathParam, ReturnType<typeof gInt>>;
  return {
    Ref: z.object(issuable),
    /** duration: GitLab's human form, "3h30m", "1w 2d"; negative subtracts spent time. */
    Duration: z.object({ ...issuable, duration: gString() }),
    Spent: z.object({ ...issuable, duration: gString(), summary: gString()
      .refine((v) => v.length <= 255, { error: "is too long (maximum is 255 characters)" })
      .optional() }),
  };
}

/** The time tracking entries of `service` (`<service>.timeTracking.*`). */
export function timeTrackingContract(service: string, pathParam: IssuablePathParam) {
  let params: ReturnType<typeof timeParams> | undefined;
  const P = () => (params ??= timeParams(pathParam));
  const stats = () => TimeStatsSchema;
  return {
    setEstimate: actionContract(`${service}.timeTracking.setEstimate`, { input: () => P().Duration, output: stats }),
    resetEstimate: actionContract(`${service}.timeTracking.resetEstimate`, { input: () => P().Ref, output: stats }),
    addSpent: actionContract(`${service}.timeTracking.addSpent`, { input: () => P().Spent, output: stats }),
    resetSpent: actionContract(`${service}.timeTracking.resetSpent`, { input: () => P().Ref, output: stats }),
    stats: actionContract(`${service}.timeTracking.stats`, { input: () => P().Ref, output: stats, idempotent: true }),
  };
}
export type TimeTrackingEntries = ReturnType<typeof timeTrackingContract>;

/** GitLab's statuses: setting and resetting answer 200, adding spent time 201; anonymous callers read the stats of what they may read. */
export function timeTrackingRoutes(entries: TimeTrackingEntries, issuablePath: string): RouteDef[] {
  const P = issuablePath;
  return [
    { method: "POST", path: `${P}/time_estimate`, action: entries.setEstimate.name, status: 200 },
    { method: "POST", path: `${P}/reset_time_estimate`, action: entries.resetEstimate.name, status: 200 },
    { method: "POST", path: `${P}/add_spent_time`, action: entries.addSpent.name },
    { method: "POST", path: `${P}/reset_spent_time`, action: entries.resetSpent.name, status: 200 },
    { method: "GET", path: `${P}/time_stats`, action: entries.stats.name, auth: "optional" },
  ];
}
