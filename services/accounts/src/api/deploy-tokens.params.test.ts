import { formatIssues } from "@collab/core";
import { CreateDeployTokenParams, ListDeployTokensParams } from "@collab/accounts-contract";

const errorOf = (input: Record<string, unknown>) => {
  const r = CreateDeployTokenParams.safeParse(input);
  return r.success ? null : formatIssues(r.error.issues, input);
};

describe("CreateDeployTokenParams", () => {
  const base = { source: "projects", id: "3", name: "pull" };

  test("scopes as arrays or comma lists of the spec's five; an empty list is left to the model", () => {
    expect(CreateDeployTokenParams.parse({ ...base, scopes: "read_repository,read_registry" }).scopes).toEqual(["read_repository", "read_registry"]);
    expect(CreateDeployTokenParams.parse({ ...base, scopes: [] }).scopes).toEqual([]);
    expect(CreateDeployTokenParams.parse({ ...base, scopes: "" }).scopes).toEqual([]);
  });

  test("Grape's messages", () => {
    expect(errorOf({ source: "projects", id: "3" })).toBe("name is missing, scopes is missing");
    expect(errorOf({ ...base, scopes: ["api"] })).toBe("scopes does not have a valid value");
    expect(errorOf({ ...base, scopes: ["read_virtual_registry"] })).toBe("scopes does not have a valid value");
    expect(errorOf({ ...base, scopes: ["read_repository"], expires_at: "soon" })).toBe("expires_at is invalid");
  });

  test("expires_at is a timestamp", () => {
    expect(CreateDeployTokenParams.parse({ ...base, scopes: ["read_repository"], expires_at: "2030-01-02T03:04:05Z" }).expires_at).toEqual(new Date("2030-01-02T03:04:05Z"));
  });
});

describe("ListDeployTokensParams", () => {
  test("active is a Grape boolean", () => {
    expect(ListDeployTokensParams.parse({ source: "groups", id: "g", active: "true" }).active).toBe(true);
    expect(ListDeployTokensParams.safeParse({ source: "groups", id: "g", active: "maybe" }).success).toBe(false);
  });
});
