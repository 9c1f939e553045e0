import { presentHook } from "./hook.entity";
import type { WebHookRow } from "../db/schema";

const row: WebHookRow = {
  id: 7,
  projectId: 3,
  groupId: null,
  uuid: "0b6b1c53-2d1e-4d6a-9a4e-5c4f2f0a9f11",
  url: "https://example.com/{path}",
  name: "n",
  description: null,
  token: "sealed-token",
  events: { issues_events: true, push_events: false },
  enableSslVerification: true,
  pushEventsBranchFilter: null,
  branchFilterStrategy: "wildcard",
  customWebhookTemplate: null,
  customHeaders: { "X-One": "sealed-value" },
  urlVariables: { path: "sealed-path" },
  recentFailures: 0,
  backoffCount: 0,
  disabledUntil: null,
  createdAt: new Date("2026-01-01T00:00:00Z"),
};

describe("hook presenter", () => {
  test("project hook: its flags over the defaults, keys of write-only values only, no token", () => {
    const shown = presentHook("project", row) as Record<string, unknown>;
    expect(shown).toMatchObject({ id: 7, project_id: 3, issues_events: true, push_events: false, note_events: false, url_variables: [{ key: "path" }], custom_headers: [{ key: "X-One" }], alert_status: "executable" });
    expect(JSON.stringify(shown)).not.toMatch(/sealed/);
    expect(shown).not.toHaveProperty("member_events");
    expect(shown).not.toHaveProperty("group_id");
  });
  test("group hook: group-only triggers, group_id", () => {
    const shown = presentHook("group", { ...row, projectId: null, groupId: 9 }) as Record<string, unknown>;
    expect(shown).toMatchObject({ group_id: 9, member_events: false, subgroup_events: false, push_events: false });
    expect(shown).not.toHaveProperty("project_id");
  });
});
