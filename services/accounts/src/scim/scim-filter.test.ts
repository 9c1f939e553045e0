import { parseScimFilter, UnsupportedFilter } from "./scim-filter";

describe("parseScimFilter", () => {
  it("is null without a filter", () => {
    expect(parseScimFilter(undefined)).toBeNull();
    expect(parseScimFilter("")).toBeNull();
    expect(parseScimFilter("   ")).toBeNull();
  });

  it("maps id, externalId and userName, case-insensitively, the operator too", () => {
    expect(parseScimFilter('userName eq "alice"')).toEqual({ attribute: "username", value: "alice" });
    expect(parseScimFilter('USERNAME EQ "alice"')).toEqual({ attribute: "username", value: "alice" });
    expect(parseScimFilter('externalId eq "a-1"')).toEqual({ attribute: "extern_uid", value: "a-1" });
    expect(parseScimFilter('id eq "a-1"')).toEqual({ attribute: "extern_uid", value: "a-1" });
  });

  it("accepts the User schema URN before the attribute", () => {
    expect(parseScimFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "bob"')).toEqual({ attribute: "username", value: "bob" });
  });

  it("reads JSON strings (spaces and escapes) and bare words", () => {
    expect(parseScimFilter('userName eq "Alice Smith"')).toEqual({ attribute: "username", value: "Alice Smith" });
    expect(parseScimFilter('externalId eq "a\\"b\\\\c"')).toEqual({ attribute: "extern_uid", value: 'a"b\\c' });
    expect(parseScimFilter("externalId eq abc-123")).toEqual({ attribute: "extern_uid", value: "abc-123" });
    expect(parseScimFilter('  userName   eq   "x@example.com"  ')).toEqual({ attribute: "username", value: "x@example.com" });
  });

  it.each([
    'displayName eq "Alice"',
    'emails[type eq "work"].value eq "a@example.com"',
    'userName co "ali"',
    'userName sw "ali"',
    "userName pr",
    'userName eq "alice" and active eq true',
    'userName eq "alice" or userName eq "bob"',
    '(userName eq "alice")',
    'userName eq ""',
    'userName eq "unterminated',
    "userName eq two words",
    "garbage",
  ])("refuses %s", (filter) => {
    expect(() => parseScimFilter(filter)).toThrow(UnsupportedFilter);
  });
});
