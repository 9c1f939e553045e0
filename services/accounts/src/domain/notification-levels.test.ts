import type { NotificationSettingRow } from "../db/schema";
import { EMAIL_EVENTS, emailEventsFor, eventColumn, resolveEffective, settingOf, type NotificationLevel } from "./notification-levels";

/** A stored row with this level (events at the table's defaults unless given). */
function row(level: NotificationLevel, over: Partial<NotificationSettingRow> = {}): NotificationSettingRow {
  const base = Object.fromEntries(EMAIL_EVENTS.map((e) => [eventColumn(e), ["failed_pipeline", "fixed_pipeline", "moved_project"].includes(e)]));
  return { id: 1, userId: 1, sourceType: "group", sourceId: 1, level, notificationEmail: null, createdAt: new Date(), updatedAt: new Date(), ...base, ...over } as NotificationSettingRow;
}

describe("effective notification level", () => {
  test("nothing set anywhere: the global default, participating", () => {
    expect(resolveEffective({ project: { id: 7 }, groups: [{ id: 2 }, { id: 1 }] })).toMatchObject({ level: "participating", source: "global", sourceId: null });
    expect(resolveEffective({ groups: [] })).toMatchObject({ level: "participating", source: "global" });
  });

  test("the project's own level wins unless it is global", () => {
    const groups = [{ id: 2, row: row("watch") }];
    expect(resolveEffective({ project: { id: 7, row: row("disabled") }, groups, global: row("mention") })).toMatchObject({ level: "disabled", source: "project", sourceId: 7 });
    expect(resolveEffective({ project: { id: 7, row: row("global") }, groups, global: row("mention") })).toMatchObject({ level: "watch", source: "group", sourceId: 2 });
  });

  test("global defers to the closest group that says something, up to the top-level group", () => {
    const groups = [
      { id: 3, row: row("global") }, // the project's subgroup
      { id: 2 }, // no row: global too
      { id: 1, row: row("mention") }, // top level
    ];
    expect(resolveEffective({ project: { id: 7 }, groups, global: row("watch") })).toMatchObject({ level: "mention", source: "group", sourceId: 1 });
  });

  test("a group at global, and no group saying otherwise, means the user's global setting", () => {
    expect(resolveEffective({ groups: [{ id: 2, row: row("global") }], global: row("watch") })).toMatchObject({ level: "watch", source: "global", sourceId: null });
    expect(resolveEffective({ project: { id: 7, row: row("global") }, groups: [{ id: 2, row: row("global") }], global: row("disabled") })).toMatchObject({ level: "disabled", source: "global" });
  });

  test("a global setting that says global is its default, participating", () => {
    expect(resolveEffective({ groups: [], global: row("global") })).toMatchObject({ level: "participating", source: "global" });
  });

  test("custom carries the deciding setting's event switches", () => {
    const custom = row("custom", { newIssue: true, failedPipeline: false });
    const effective = resolveEffective({ project: { id: 7 }, groups: [{ id: 2, row: custom }], global: row("custom", { newNote: true }) });
    expect(effective).toMatchObject({ level: "custom", source: "group", sourceId: 2 });
    expect(effective.events).toMatchObject({ new_issue: true, new_note: false, failed_pipeline: false, fixed_pipeline: true, moved_project: true });
  });
});

describe("settings and events", () => {
  test("a source without a row has GitLab's defaults", () => {
    expect(settingOf(undefined, "global").level).toBe("participating");
    expect(settingOf(undefined, "group").level).toBe("global");
    expect(settingOf(undefined, "project").events).toMatchObject({ new_note: false, failed_pipeline: true, fixed_pipeline: true, moved_project: true, merge_when_pipeline_succeeds: false });
  });

  test("every event has its column", () => {
    const sample = row("custom");
    for (const e of EMAIL_EVENTS) expect([e, typeof sample[eventColumn(e)]]).toEqual([e, "boolean"]);
    expect(eventColumn("merge_when_pipeline_succeeds")).toBe("mergeWhenPipelineSucceeds");
  });

  test("new_epic only on Ultimate, and never on projects", () => {
    expect(emailEventsFor("group", "ultimate")).toContain("new_epic");
    expect(emailEventsFor("global", "ultimate")).toContain("new_epic");
    expect(emailEventsFor("project", "ultimate")).not.toContain("new_epic");
    expect(emailEventsFor("group", "premium")).not.toContain("new_epic");
    expect(emailEventsFor("global", "free")).toHaveLength(17);
  });
});
