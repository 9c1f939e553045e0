import { changeValues } from "./hook-attrs";

describe("changeValues (webhooks' `changes`)", () => {
  test("only the fields that differ, with their values before and after; dates as ISO strings, id lists in any order", () => {
    const before = { title: "Crash", description: null, label_ids: [2, 1], assignee_ids: [5], updated_at: new Date("2026-01-01T00:00:00Z"), weight: null };
    const after = { title: "Crash on start", description: null, label_ids: [1, 2], assignee_ids: [6], updated_at: new Date("2026-01-02T00:00:00Z"), weight: 3 };
    expect(changeValues(before, after)).toEqual({
      title: { previous: "Crash", current: "Crash on start" },
      assignee_ids: { previous: [5], current: [6] },
      updated_at: { previous: "2026-01-01T00:00:00.000Z", current: "2026-01-02T00:00:00.000Z" },
      weight: { previous: null, current: 3 },
    });
    expect(changeValues(before, before)).toEqual({});
  });
});
