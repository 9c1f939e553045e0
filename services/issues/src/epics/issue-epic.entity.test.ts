import type { EpicRow } from "../db/schema";
import { humanReadableTimestamp, mediumDate, presentIssueEpic } from "./issue-epic.entity";

const now = new Date("2026-03-10T15:00:00Z");

describe("humanReadableTimestamp (GitLab's remaining_days_in_words)", () => {
  test.each([
    ["a due date gone by", null, "2026-03-09", "<strong>Past due</strong>"],
    ["due today", "2026-01-01", "2026-03-10", "<strong>Today</strong>"],
    ["a start to come", "2026-03-11", "2026-04-01", "<strong>Upcoming</strong>"],
    ["one day left", null, "2026-03-11", "<strong>1</strong> day remaining"],
    ["days left", "2026-03-01", "2026-03-31", "<strong>21</strong> days remaining"],
    ["months left", null, "2026-06-10", "<strong>3</strong> months remaining"],
    ["years left", null, "2028-03-10", "<strong>2</strong> years remaining"],
    ["days since the start", "2026-03-03", null, "<strong>7</strong> days elapsed"],
    ["one day since the start", "2026-03-09", null, "<strong>1</strong> day elapsed"],
  ])("%s", (_, start, due, words) => {
    expect(humanReadableTimestamp(start, due, now)).toBe(words);
  });

  test("no dates, no words", () => expect(humanReadableTimestamp(null, null, now)).toBeUndefined());
});

test("dates read as GitLab's :medium format", () => {
  expect([mediumDate("2020-01-31"), mediumDate("2026-12-01")]).toEqual(["Jan 31, 2020", "Dec 1, 2026"]);
});

describe("presentIssueEpic", () => {
  const epic = { id: 7, iid: 3, groupId: 4, title: "Launch", startDateIsFixed: false, startDateFixed: "2026-01-01", dueDateIsFixed: true, dueDateFixed: "2026-03-31" } as EpicRow;

  test("the epic's path, and the end date only when the due date counts", () => {
    expect(presentIssueEpic(epic, "platform/billing", now)).toEqual({
      id: 7,
      iid: 3,
      title: "Launch",
      url: "/groups/platform/billing/-/epics/3",
      group_id: 4,
      human_readable_end_date: "Mar 31, 2026",
      human_readable_timestamp: "<strong>21</strong> days remaining",
    });
  });

  test("an epic without fixed dates has neither human readable field", () => {
    const presented = presentIssueEpic({ ...epic, dueDateIsFixed: false }, "platform", now);
    expect(Object.keys(presented)).toEqual(["id", "iid", "title", "url", "group_id"]);
  });
});
