import { z } from "zod";
import {
  atLeastOneOf,
  formatIssues,
  gArray,
  gBool,
  gDate,
  gDateTime,
  gEnum,
  gId,
  gInt,
  gIntArray,
  gSort,
  isOutOfRangeIssue,
  MAX_INT,
  MIN_INT,
  parseTimestamp,
  recordId,
  gString,
  mutuallyExclusive,
  offsetOf,
  paginationParams,
  parseBoolean,
  sentinelOr,
  toList,
} from "./params";

/** The Grape error text a schema gives for an input, or the parsed value. */
function parse<S extends z.ZodType>(schema: S, input: unknown): { ok: z.output<S> } | { error: string } {
  const result = schema.safeParse(input);
  return result.success ? { ok: result.data } : { error: formatIssues(result.error.issues, input) };
}
const field = <S extends z.ZodType>(s: S) => z.object({ p: s });

describe("parseBoolean and gBool", () => {
  test.each(["true", "TRUE", "t", "1", "yes", "Y", "on", " On "])("%j is true", (v) => expect(parseBoolean(v)).toBe(true));
  test.each(["false", "F", "0", "no", "n", "OFF"])("%j is false", (v) => expect(parseBoolean(v)).toBe(false));

  test("numbers 1 and 0, booleans as they are, anything else untouched", () => {
    expect([parseBoolean(1), parseBoolean(0), parseBoolean(true), parseBoolean(false)]).toEqual([true, false, true, false]);
    expect([parseBoolean(2), parseBoolean("maybe"), parseBoolean(undefined)]).toEqual([2, "maybe", undefined]);
  });

  test("gBool treats null as false and rejects anything else as invalid", () => {
    expect(parse(field(gBool()), { p: "yes" })).toEqual({ ok: { p: true } });
    expect(parse(field(gBool()), { p: null })).toEqual({ ok: { p: false } });
    expect(parse(field(gBool()), { p: "maybe" })).toEqual({ error: "p is invalid" });
    expect(parse(field(gBool()), { p: 2 })).toEqual({ error: "p is invalid" });
  });
});

describe("gInt, gId and gString", () => {
  test("integers from numbers and digit strings", () => {
    expect(parse(field(gInt()), { p: "42" })).toEqual({ ok: { p: 42 } });
    expect(parse(field(gInt()), { p: " -7 " })).toEqual({ ok: { p: -7 } });
    expect(parse(field(gInt()), { p: 3 })).toEqual({ ok: { p: 3 } });
  });

  test.each(["4.2", "abc", "", "1e3", 4.2, true])("%j is not an integer", (v) => {
    expect(parse(field(gInt()), { p: v })).toEqual({ error: "p is invalid" });
  });

  test("integers a PostgreSQL integer column holds, and no others", () => {
    expect(parse(field(gInt()), { p: String(MAX_INT) })).toEqual({ ok: { p: MAX_INT } });
    expect(parse(field(gInt()), { p: MIN_INT })).toEqual({ ok: { p: MIN_INT } });
    for (const v of ["2147483648", "-2147483649", "9223372036854775808", 2 ** 53, 1e308, "99999999999999999999999"]) {
      expect(parse(field(gInt()), { p: v })).toEqual({ error: "p is invalid" });
    }
  });

  test("an out-of-range integer is marked as such (a path segment naming it is a 404), a malformed one is not", () => {
    const issues = (v: unknown) => field(gId()).safeParse({ p: v }).error?.issues ?? [];
    expect(issues("2147483648").some(isOutOfRangeIssue)).toBe(true);
    expect(issues("abc").some(isOutOfRangeIssue)).toBe(false);
    expect(issues("0").some(isOutOfRangeIssue)).toBe(false);
  });

  test("recordId: an id when numeric and in range, null when numeric beyond any id, undefined for paths", () => {
    expect([recordId("42"), recordId(7), recordId(String(MAX_INT))]).toEqual([42, 7, MAX_INT]);
    expect([recordId("2147483648"), recordId("9223372036854775808")]).toEqual([null, null]);
    expect([recordId("group/project"), recordId("-1"), recordId("1e3"), recordId("")]).toEqual([undefined, undefined, undefined, undefined]);
  });

  test("ids are positive", () => {
    expect(parse(field(gId()), { p: "5" })).toEqual({ ok: { p: 5 } });
    expect(parse(field(gId()), { p: 0 })).toEqual({ error: "p is invalid" });
    expect(parse(field(gId()), { p: "-1" })).toEqual({ error: "p is invalid" });
  });

  test("strings accept numbers as Grape does, nothing else", () => {
    expect(parse(field(gString()), { p: 12 })).toEqual({ ok: { p: "12" } });
    expect(parse(field(gString()), { p: "x" })).toEqual({ ok: { p: "x" } });
    expect(parse(field(gString()), { p: { a: 1 } })).toEqual({ error: "p is invalid" });
  });
});

describe("arrays", () => {
  test("toList accepts arrays, comma-separated strings and qs objects", () => {
    expect(toList(["a", "b"])).toEqual(["a", "b"]);
    expect(toList("a,b")).toEqual(["a", "b"]);
    expect(toList(["a,b", "c"])).toEqual(["a", "b", "c"]);
    expect(toList(" a , ,b ")).toEqual(["a", "b"]);
    expect(toList({ 0: "x", 1: "y" })).toEqual(["x", "y"]);
    expect(toList(5)).toEqual([5]);
    expect(toList(undefined)).toBeUndefined();
    expect(toList(null)).toBeNull();
  });

  test("gArray validates every item and reports the parameter once", () => {
    expect(parse(field(gIntArray()), { p: "1,2,3" })).toEqual({ ok: { p: [1, 2, 3] } });
    expect(parse(field(gIntArray()), { p: ["1", "x", "y"] })).toEqual({ error: "p is invalid" });
    expect(parse(field(gArray(gEnum(["a", "b"] as const))), { p: "a,c" })).toEqual({ error: "p does not have a valid value" });
    expect(parse(field(gArray(gString())), { p: true })).toEqual({ error: "p is invalid" });
  });
});

describe("dates", () => {
  test("gDate keeps a YYYY-MM-DD string", () => {
    expect(parse(field(gDate()), { p: "2024-02-29" })).toEqual({ ok: { p: "2024-02-29" } });
  });

  test.each(["2023-02-29", "2023-02-30", "2023-04-31", "2023-13-01", "2023-1-5", "2023-01-05T00:00:00Z", "tomorrow"])("gDate rejects %j", (v) => {
    expect(parse(field(gDate()), { p: v })).toEqual({ error: "p is invalid" });
  });

  test("gDateTime parses ISO 8601 leniently, date-only as UTC midnight", () => {
    expect(parse(field(gDateTime()), { p: "2024-01-02" })).toEqual({ ok: { p: new Date("2024-01-02T00:00:00Z") } });
    expect(parse(field(gDateTime()), { p: "2024-01-02T03:04:05+02:00" })).toEqual({ ok: { p: new Date("2024-01-02T01:04:05Z") } });
    expect(parse(field(gDateTime()), { p: "soon" })).toEqual({ error: "p is invalid" });
    expect(parse(field(gDateTime()), { p: "" })).toEqual({ error: "p is invalid" });
  });

  test.each(["2024-02-30T10:00:00Z", "2023-02-29", "2024-01-01T24:00:00Z", "2024-01-01T10:60:00Z", "+275760-09-13T00:00:00Z", "-000001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "10000-01-01"])(
    "gDateTime refuses a day, clock or year that cannot be stored: %j",
    (v) => {
      expect(parseTimestamp(v)).toBeUndefined();
      expect(parse(field(gDateTime()), { p: v })).toEqual({ error: "p is invalid" });
    },
  );

  test("gDateTime keeps the forms Ruby's Time.parse takes", () => {
    expect(parseTimestamp("2024-02-29T23:59:59.999Z")).toEqual(new Date("2024-02-29T23:59:59.999Z"));
    expect(parseTimestamp("2024-01-02 03:04:05+00:00")).toEqual(new Date("2024-01-02T03:04:05Z"));
    expect(parseTimestamp("Tue, 02 Jan 2024 03:04:05 GMT")).toEqual(new Date("2024-01-02T03:04:05Z"));
    expect(parseTimestamp("9999-12-31")).toEqual(new Date("9999-12-31T00:00:00Z"));
  });

  test("gDate refuses year 0, which PostgreSQL has not", () => {
    expect(parse(field(gDate()), { p: "0000-01-01" })).toEqual({ error: "p is invalid" });
  });
});

describe("enums and sentinels", () => {
  test("a value outside the list does not have a valid value", () => {
    expect(parse(field(gEnum(["asc", "desc"] as const)), { p: "up" })).toEqual({ error: "p does not have a valid value" });
  });

  test("gSort defaults", () => {
    expect(parse(z.object({ sort: gSort() }), {})).toEqual({ ok: { sort: "desc" } });
    expect(parse(z.object({ sort: gSort("asc") }), {})).toEqual({ ok: { sort: "asc" } });
  });

  test("None and Any in any case, else the inner schema", () => {
    const s = field(sentinelOr(gId()));
    expect(parse(s, { p: "none" })).toEqual({ ok: { p: "None" } });
    expect(parse(s, { p: "ANY" })).toEqual({ ok: { p: "Any" } });
    expect(parse(s, { p: "7" })).toEqual({ ok: { p: 7 } });
    expect(parse(s, { p: "some" })).toEqual({ error: "p is invalid" });
  });
});

describe("paginationParams", () => {
  const P = z.object(paginationParams);

  test("defaults to page 1 of 20", () => {
    expect(parse(P, {})).toEqual({ ok: { page: 1, per_page: 20 } });
    expect(offsetOf({ page: 3, per_page: 20 })).toBe(40);
  });

  test("per_page is clamped to 100", () => {
    expect(parse(P, { per_page: "500" })).toEqual({ ok: { page: 1, per_page: 100 } });
    expect(parse(P, { per_page: "100" })).toEqual({ ok: { page: 1, per_page: 100 } });
  });

  test("per_page=0 has only GitLab's except_values message", () => {
    expect(parse(P, { per_page: "0" })).toEqual({ error: "per_page has a value not allowed" });
  });

  test("negative and non-numeric values", () => {
    expect(parse(P, { per_page: "-1" })).toEqual({ error: "per_page does not have a valid value" });
    expect(parse(P, { page: "0" })).toEqual({ error: "page does not have a valid value" });
    expect(parse(P, { page: "two" })).toEqual({ error: "page is invalid" });
  });
});

describe("formatIssues", () => {
  test("absent required params are missing, whatever their type's own message", () => {
    const s = z.object({ title: gString(), id: gId(), labels: gArray(gString()), state: gEnum(["a"] as const) });
    expect(parse(s, {})).toEqual({ error: "title is missing, id is missing, labels is missing, state is missing" });
  });

  test("present but wrong params are invalid, in declaration order", () => {
    const s = z.object({ title: gString(), id: gId() });
    expect(parse(s, { title: ["x"], id: "x" })).toEqual({ error: "title is invalid, id is invalid" });
    expect(parse(s, { id: "x" })).toEqual({ error: "title is missing, id is invalid" });
  });

  test("nested params are named with brackets; array positions are left out", () => {
    const s = z.object({ position: z.object({ base_sha: gString() }), labels: z.array(gString()) });
    expect(parse(s, { position: {}, labels: ["a", 1, {}] })).toEqual({ error: "position[base_sha] is missing, labels is invalid" });
  });

  test("zod's own messages fall back to Grape's wording", () => {
    const s = z.object({ kind: z.enum(["a", "b"]), n: z.number() });
    expect(parse(s, { kind: "c", n: "x" })).toEqual({ error: "kind does not have a valid value, n is invalid" });
  });

  test("mutually exclusive and at-least-one-of rules speak for themselves", () => {
    const ex = z.object({ a: gString().optional(), b: gString().optional() }).superRefine(mutuallyExclusive("a", "b"));
    expect(parse(ex, { a: "1", b: "2" })).toEqual({ error: "a, b are mutually exclusive" });
    expect(parse(ex, { a: "1" })).toEqual({ ok: { a: "1" } });

    const one = z.object({ a: gString().optional(), b: gString().optional() }).superRefine(atLeastOneOf("a", "b"));
    expect(parse(one, {})).toEqual({ error: "a, b are missing, at least one parameter must be provided" });
    expect(parse(one, { b: "x" })).toEqual({ ok: { b: "x" } });
  });
});
