import { errorBodyOf } from "@collab/core";
import { KINDS, kindOf, SlugRef, slugsFor } from "@collab/integrations-contract";
import { parseSetup } from "./integration.params";

const bodyOf = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return errorBodyOf(err)?.body;
  }
  return undefined;
};

describe("set-up params", () => {
  test("every required field of every kind is named when missing", () => {
    for (const kind of KINDS) {
      for (const f of kind.fields.filter((x) => x.required)) {
        const full = Object.fromEntries(kind.fields.filter((x) => x.required).map((x) => [x.name, typeof x.type === "object" ? x.type.enum[0] : "x"]));
        delete full[f.name];
        expect(bodyOf(() => parseSetup(kind, full))).toEqual({ error: `${f.name} is missing` });
      }
    }
  });

  test("booleans and enums parse Grape's way; unknown extras are ignored", () => {
    const discord = kindOf("discord");
    expect(parseSetup(discord, { webhook: "https://x.example.com", push_events: "false", notify_only_broken_pipelines: "1", extra: 1, use_inherited_settings: "true" })).toEqual({
      webhook: "https://x.example.com",
      push_events: false,
      notify_only_broken_pipelines: true,
      use_inherited_settings: true,
    });
    expect(bodyOf(() => parseSetup(discord, { webhook: "h", branches_to_be_notified: "x" }))).toEqual({ error: "branches_to_be_notified does not have a valid value" });
    // an event kind the integration does not take is not one of its params
    expect(parseSetup(kindOf("asana"), { api_key: "k", push_events: false })).toEqual({ api_key: "k" });
  });

  test("slugs by level: apple-app-store is project only; anything else does not have a valid value", () => {
    expect(slugsFor("project")).toContain("apple-app-store");
    expect(slugsFor("group")).not.toContain("apple-app-store");
    expect(SlugRef(slugsFor("project")).safeParse({ id: "1", slug: "discord" }).success).toBe(true);
    expect(SlugRef(slugsFor("group")).safeParse({ id: "1", slug: "apple-app-store" }).success).toBe(false);
  });

  test("mock-ci is not offered in production", () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      expect(slugsFor("project")).not.toContain("mock-ci");
    } finally {
      process.env.NODE_ENV = previous;
    }
    expect(slugsFor("project")).toContain("mock-ci");
  });
});

describe("typed fields", () => {
  test("integers and lists parse Grape's way", () => {
    const jira = kindOf("jira");
    expect(parseSetup(jira, { url: "https://j.example.com", password: "p", jira_auth_type: "1", project_keys: "A,B" })).toMatchObject({ jira_auth_type: 1, project_keys: ["A", "B"] });
    expect(bodyOf(() => parseSetup(jira, { url: "https://j.example.com", password: "p", jira_auth_type: "one" }))).toEqual({ error: "jira_auth_type is invalid" });
  });
});
