import type { IssueEpic } from "@collab/issues-contract";
import type { EpicRow } from "../db/schema";
import { epicDates } from "./epic.entity";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_MS = 86_400_000;

/** A date (YYYY-MM-DD) as GitLab's :medium format writes it: "Feb 1, 2026". */
export function mediumDate(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

const strong = (text: string | number) => `<strong>${text}</strong>`;
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** Whole days from `today` (UTC, YYYY-MM-DD) to `date`: negative in the past. */
const daysFrom = (today: string, date: string) => Math.round((Date.parse(date) - Date.parse(today)) / DAY_MS);

/**
 * GitLab's remaining_days_in_words (HTML, as its API answers it): "Past due", "Upcoming", "Today",
 * the time left to the due date, or the days elapsed since the start; undefined without dates.
 */
export function humanReadableTimestamp(start: string | null, due: string | null, now: Date): string | undefined {
  const today = now.toISOString().slice(0, 10);
  if (due !== null && due < today) return strong("Past due");
  if (start !== null && start > today) return strong("Upcoming");
  if (due !== null && due === today) return strong("Today");
  if (due !== null) {
    const days = daysFrom(today, due);
    // As GitLab's distance_in_time_for_translation: days up to a month, then months, then years.
    const [count, unit] = days <= 31 ? [days, "day"] : days < 365 ? [Math.round(days / 30.436875), "month"] : [Math.round(days / 365.2425), "year"];
    return `${plural(count, unit).replace(/\d+/, (n) => strong(n))} remaining`;
  }
  if (start !== null) {
    const days = -daysFrom(today, start);
    return `${strong(days)} ${days === 1 ? "day" : "days"} elapsed`;
  }
  return undefined;
}

/**
 * The epic an issue embeds (GitLab's EpicBaseEntity): `groupPath` is the epic's group's full path
 * (its url is a path, as GitLab's group_epic_path).
 */
export function presentIssueEpic(epic: EpicRow, groupPath: string, now: Date): IssueEpic {
  const { start, due } = epicDates(epic);
  const timestamp = humanReadableTimestamp(start, due, now);
  return {
    id: epic.id,
    iid: epic.iid,
    title: epic.title,
    url: `/groups/${groupPath}/-/epics/${epic.iid}`,
    group_id: epic.groupId,
    ...(due !== null ? { human_readable_end_date: mediumDate(due) } : {}),
    ...(timestamp !== undefined ? { human_readable_timestamp: timestamp } : {}),
  };
}
