import { ScimCreateParams, ScimPatchParams, UpdateSamlParams } from "@collab/accounts-contract";
import { castValue, patchAttributes, postAttributes, scimPagination } from "./scim.params";

describe("postAttributes (ParamsParser#post_params)", () => {
  const okta = {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    externalId: "00u1",
    userName: "alice@example.com",
    name: { givenName: "Alice", familyName: "Smith" },
    emails: [{ primary: true, value: "alice@example.com", type: "work" }],
    active: true,
  };

  it("maps an Okta-style user", () => {
    expect(postAttributes(ScimCreateParams.parse({ ...okta, group_path: "g" }))).toEqual({
      extern_uid: "00u1",
      username: "alice@example.com",
      name: "Alice Smith",
      email: "alice@example.com",
      active: true,
    });
  });

  it("prefers name.formatted, then displayName; externalId over id", () => {
    expect(postAttributes({ id: "x", externalId: "y", name: { formatted: "Al S" }, displayName: "Other" })).toMatchObject({ extern_uid: "y", name: "Al S" });
    expect(postAttributes({ id: "x", displayName: "Disp" })).toEqual({ extern_uid: "x", name: "Disp" });
  });

  it("takes the work or primary email only", () => {
    expect(postAttributes({ emails: [{ value: "home@x", type: "home" }, { value: "w@x", type: "work" }] }).email).toBe("w@x");
    expect(postAttributes({ emails: [{ value: "home@x", type: "home" }, { value: "p@x", primary: true }] }).email).toBe("p@x");
    expect(postAttributes({ emails: [{ value: "home@x", type: "home" }] }).email).toBeUndefined();
  });

  it("casts active like ValueParser", () => {
    expect(postAttributes({ active: "False" }).active).toBe(false);
    expect(postAttributes({ active: '"true"' }).active).toBe(true);
    expect(postAttributes({ active: "maybe" }).active).toBeUndefined();
  });

  it("reads numbers as text and treats null as absent", () => {
    const parsed = ScimCreateParams.parse({ group_path: "g", externalId: 42, userName: null });
    expect(postAttributes(parsed)).toEqual({ extern_uid: "42" });
  });

  it("refuses emails that are not a list", () => {
    expect(ScimCreateParams.safeParse({ group_path: "g", emails: "a@b" }).success).toBe(false);
  });
});

describe("patchAttributes (ParamsParser#update_params)", () => {
  it("reads path operations (Azure), any op case", () => {
    expect(
      patchAttributes([
        { op: "Replace", path: "active", value: "False" },
        { op: "Add", path: "externalId", value: "new-uid" },
        { op: "replace", path: "userName", value: "bob" },
      ]),
    ).toEqual({ active: false, extern_uid: "new-uid", username: "bob" });
  });

  it("reads value objects (Okta), every mapped key", () => {
    expect(patchAttributes([{ op: "replace", value: { active: false, externalId: "e", "name.formatted": "N" } }])).toEqual({ active: false, extern_uid: "e", name: "N" });
    expect(patchAttributes([{ op: "replace", value: { name: { formatted: "Nested" } } }])).toEqual({ name: "Nested" });
  });

  it("maps the work email path and ignores unknown attributes and other ops", () => {
    expect(patchAttributes([{ op: "replace", path: 'emails[type eq "work"].value', value: "w@x" }])).toEqual({ email: "w@x" });
    expect(patchAttributes([{ op: "remove", path: "active" }, { op: "replace", path: "title", value: "x" }, { op: "replace", value: "scalar" }])).toEqual({});
    expect(patchAttributes(undefined)).toEqual({});
  });

  it("is what the route's schema hands over", () => {
    const parsed = ScimPatchParams.parse({ group_path: "g", id: "u", Operations: [{ op: "replace", path: "active", value: false }] });
    expect(patchAttributes(parsed.Operations)).toEqual({ active: false });
    expect(ScimPatchParams.safeParse({ group_path: "g", id: "u", Operations: [{ path: "active" }] }).success).toBe(false);
  });
});

describe("castValue (ValueParser)", () => {
  it("unquotes strings and coerces booleans", () => {
    expect(castValue('"abc"')).toBe("abc");
    expect(castValue("TRUE")).toBe(true);
    expect(castValue(false)).toBe(false);
    expect(castValue(7)).toBe("7");
    expect(castValue({})).toBeUndefined();
  });
});

describe("scimPagination", () => {
  it("defaults to the first 20", () => {
    expect(scimPagination({})).toEqual({ startIndex: 1, count: 20, offset: 0 });
  });

  it("reads numbers like Ruby's to_i and clamps them", () => {
    expect(scimPagination({ startIndex: "3", count: "2" })).toEqual({ startIndex: 3, count: 2, offset: 2 });
    expect(scimPagination({ startIndex: "0", count: "0" })).toEqual({ startIndex: 1, count: 20, offset: 0 });
    expect(scimPagination({ startIndex: "-5", count: "-1" })).toEqual({ startIndex: 1, count: 20, offset: 0 });
    expect(scimPagination({ startIndex: "junk", count: "500" })).toEqual({ startIndex: 1, count: 100, offset: 0 });
    expect(scimPagination({ startIndex: "7abc", count: "5xyz" })).toEqual({ startIndex: 7, count: 5, offset: 6 });
    expect(scimPagination({ startIndex: "99999999999999999999" }).startIndex).toBe(2_147_483_647);
  });
});

describe("UpdateSamlParams", () => {
  it("needs at least one setting", () => {
    const res = UpdateSamlParams.safeParse({ id: "1" });
    expect(res.success).toBe(false);
  });

  it("coerces Grape-style booleans and integers", () => {
    expect(UpdateSamlParams.parse({ id: "g", enabled: "true", default_membership_role: "30" })).toMatchObject({ enabled: true, default_membership_role: 30 });
  });
});
