import { labelsMatch, labelsToBeNotified } from "./label-filter";

describe("chat notifiers' label filter (GitLab's notify_label?)", () => {
  test("labels_to_be_notified: comma-separated titles, `~` and blanks ignored", () => {
    expect(labelsToBeNotified({ labels_to_be_notified: "~bug, urgent ,,~\"UX\"" })).toEqual(["bug", "urgent", '"UX"']);
    expect(labelsToBeNotified({ labels_to_be_notified: "" })).toEqual([]);
    expect(labelsToBeNotified({})).toEqual([]);
  });

  test("match_any (the default) needs one of the labels, match_all every one; no label never matches", () => {
    expect(labelsMatch(["bug", "urgent"], ["bug"], undefined)).toBe(true);
    expect(labelsMatch(["bug", "urgent"], ["bug"], "match_any")).toBe(true);
    expect(labelsMatch(["bug", "urgent"], ["docs"], "match_any")).toBe(false);
    expect(labelsMatch(["bug", "urgent"], ["bug"], "match_all")).toBe(false);
    expect(labelsMatch(["bug", "urgent"], ["urgent", "docs", "bug"], "match_all")).toBe(true);
    expect(labelsMatch(["bug"], [], "match_any")).toBe(false);
  });
});
