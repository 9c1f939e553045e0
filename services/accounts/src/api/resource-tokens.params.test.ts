import { formatIssues } from "@collab/core";
import { CreateResourceTokenParams, ListResourceTokensParams } from "@collab/accounts-contract";

const errorOf = (input: Record<string, unknown>) => {
  const r = CreateResourceTokenParams.safeParse(input);
  return r.success ? null : formatIssues(r.error.issues, input);
};

describe("CreateResourceTokenParams", () => {
  const base = { source: "projects", id: "5", name: "ci", scopes: ["api"] };

  test("access_level defaults to Maintainer; scopes come as arrays or comma lists", () => {
    expect(CreateResourceTokenParams.parse(base)).toMatchObject({ access_level: 40, scopes: ["api"] });
    expect(CreateResourceTokenParams.parse({ ...base, scopes: "api, read_repository", access_level: "10" })).toMatchObject({ access_level: 10, scopes: ["api", "read_repository"] });
  });

  test("Grape's messages: missing, invalid scopes (read_user and admin scopes included), levels outside Guest..Owner", () => {
    expect(errorOf({ source: "projects", id: "5" })).toBe("name is missing, scopes is missing");
    expect(errorOf({ ...base, scopes: ["read_user"] })).toBe("scopes does not have a valid value");
    expect(errorOf({ ...base, scopes: ["admin_mode"] })).toBe("scopes does not have a valid value");
    expect(errorOf({ ...base, scopes: [] })).toBe("scopes is empty");
    expect(errorOf({ ...base, access_level: 15 })).toBe("access_level does not have a valid value");
    expect(errorOf({ ...base, access_level: 60 })).toBe("access_level does not have a valid value");
    expect(errorOf({ ...base, expires_at: "2026-13-01" })).toBe("expires_at is invalid");
  });
});

describe("ListResourceTokensParams", () => {
  test("the personal access token list filters", () => {
    expect(ListResourceTokensParams.parse({ source: "groups", id: "acme", state: "inactive", revoked: "true" })).toMatchObject({ state: "inactive", revoked: true, page: 1, per_page: 20 });
    expect(ListResourceTokensParams.safeParse({ source: "groups", id: "acme", state: "dead" }).success).toBe(false);
  });
});
