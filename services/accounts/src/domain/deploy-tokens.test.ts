import { deployTokenErrors, deployUsername, isDeployTokenExpired, orderedScopes, toSentence } from "./deploy-tokens";

describe("deploy token rules", () => {
  test("the default username is the spec's svc+deploy-token-{id}", () => {
    expect(deployUsername({ id: 4, username: null })).toBe("svc+deploy-token-4");
    expect(deployUsername({ id: 4, username: "ci-pull" })).toBe("ci-pull");
  });

  test("scopes keep GitLab's order whatever the request's", () => {
    expect(orderedScopes(["write_package_registry", "read_repository", "read_registry"])).toEqual(["read_repository", "read_registry", "write_package_registry"]);
  });

  test("expired once expires_at has passed; never without one", () => {
    const now = new Date("2026-05-01T12:00:00Z");
    expect(isDeployTokenExpired({ expiresAt: null }, now)).toBe(false);
    expect(isDeployTokenExpired({ expiresAt: new Date("2026-05-01T12:00:01Z") }, now)).toBe(false);
    expect(isDeployTokenExpired({ expiresAt: new Date("2026-05-01T12:00:00Z") }, now)).toBe(true);
  });

  test("model errors, as full messages in declaration order, joined as Rails' to_sentence", () => {
    expect(deployTokenErrors({ name: "n", scopes: ["read_repository"] })).toEqual([]);
    expect(deployTokenErrors({ name: "n", scopes: ["read_repository"], username: "a.b+c_d-e" })).toEqual([]);
    const all = deployTokenErrors({ name: "x".repeat(256), scopes: [], username: "bad name!" });
    expect(all).toEqual(["Scopes can't be blank", "Username can contain only letters, digits, '_', '-', '+', and '.'", "Name is too long (maximum is 255 characters)"]);
    expect(toSentence(all)).toBe(
      "Scopes can't be blank, Username can contain only letters, digits, '_', '-', '+', and '.', and Name is too long (maximum is 255 characters)",
    );
    expect(toSentence(["a", "b"])).toBe("a and b");
    expect(toSentence(["a"])).toBe("a");
  });
});
