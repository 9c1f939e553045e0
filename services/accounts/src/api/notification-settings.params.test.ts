import { formatIssues } from "@collab/core";
import { SourceSettingParams, UpdateGlobalSettingParams, UpdateSourceSettingParams } from "@collab/accounts-contract";
import { changesFor } from "./notification-settings.params";

/** The 400 body's message Grape would give, or the parsed params. */
function parse(schema: typeof UpdateGlobalSettingParams | typeof UpdateSourceSettingParams, input: Record<string, unknown>) {
  const result = schema.safeParse(input);
  return result.success ? result.data : formatIssues(result.error.issues, input);
}

describe("notification settings params", () => {
  test("every level of the spec, and nothing else", () => {
    for (const level of ["disabled", "participating", "watch", "global", "mention", "custom"]) expect(parse(UpdateGlobalSettingParams, { level })).toMatchObject({ level });
    expect(parse(UpdateGlobalSettingParams, { level: "loud" })).toBe("level does not have a valid value");
    expect(parse(UpdateSourceSettingParams, { source: "projects", id: "1", level: "Watch" })).toBe("level does not have a valid value");
  });

  test("event switches are Grape booleans", () => {
    expect(parse(UpdateSourceSettingParams, { source: "groups", id: "g", new_note: "true", close_issue: "0", issue_due: "yes" })).toMatchObject({ new_note: true, close_issue: false, issue_due: true });
    expect(parse(UpdateSourceSettingParams, { source: "groups", id: "g", new_note: "maybe" })).toBe("new_note is invalid");
  });

  test("notification_email is a string; null means not given", () => {
    expect(parse(UpdateGlobalSettingParams, { notification_email: "a@example.com" })).toMatchObject({ notification_email: "a@example.com" });
    expect(parse(UpdateGlobalSettingParams, { notification_email: null })).toMatchObject({ notification_email: null });
    expect(parse(UpdateGlobalSettingParams, { notification_email: ["a"] })).toBe("notification_email is invalid");
  });

  test("a route names its source; ids may be paths", () => {
    expect(SourceSettingParams.parse({ source: "projects", id: "group/project" })).toEqual({ source: "projects", id: "group/project" });
    expect(SourceSettingParams.safeParse({ source: "users", id: "1" }).success).toBe(false);
  });

  test("changes keep only the events the source has on the tier", () => {
    const p = { level: "custom" as const, new_note: true, new_epic: true, moved_project: false };
    expect(changesFor(p, "group", "ultimate")).toEqual({ level: "custom", events: { new_note: true, new_epic: true, moved_project: false } });
    expect(changesFor(p, "global", "ultimate").events).toHaveProperty("new_epic", true);
    expect(changesFor(p, "project", "ultimate").events).not.toHaveProperty("new_epic");
    expect(changesFor(p, "group", "premium").events).not.toHaveProperty("new_epic");
    expect(changesFor({}, "global", "free")).toEqual({ level: undefined, events: {} });
  });
});
