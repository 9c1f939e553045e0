import { z } from "zod";

/**
 * Request parameters as GitLab's Grape layer parses them. Every helper produces lower-case
 * messages ("is invalid") that the input middleware prefixes with the parameter name.
 */

const TRUE = new Set(["true", "t", "1", "yes", "y", "on"]);
const FALSE = new Set(["false", "f", "0", "no", "n", "off"]);

export function parseBoolean(v: unknown): unknown {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v === 1 ? true : v === 0 ? false : v;
  if (typeof v === "string") {
    const s = v.trim().toLowerCase();
    if (TRUE.has(s)) return true;
    if (FALSE.has(s)) return false;
  }
  return v;
}

/** true/false, 1/0, t/f, yes/no, y/n, on/off in any case; `null` is false as GitLab documents. */
export const gBool = () => z.preprocess((v) => (v === null ? false : parseBoolean(v)), z.boolean({ error: "is invalid" }));

/** What an `integer` column holds: every id, iid, count and limit column of the schemas is int4. */
export const MIN_INT = -2_147_483_648;
export const MAX_INT = 2_147_483_647;

/**
 * Marks an issue raised for a well-formed integer the column cannot hold. Grape would accept the
 * value and the record lookup would find nothing, so the gateway answers 404 when such a value
 * came in the URL path, and 400 "<param> is invalid" elsewhere.
 */
export const OUT_OF_RANGE = { outOfRange: true } as const;
export const isOutOfRangeIssue = (issue: z.core.$ZodIssue) =>
  issue.code === "custom" && (issue as { params?: { outOfRange?: boolean } }).params?.outOfRange === true;

const toInt = (v: unknown) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v);
export const gInt = () =>
  z.preprocess(
    toInt,
    z
      .number({ error: "is invalid" })
      // Not .int(): zod's int check also refuses unsafe integers, which are out of range here.
      .refine((n) => Number.isInteger(n), { error: "is invalid", abort: true })
      .refine((n) => n >= MIN_INT && n <= MAX_INT, { error: "is invalid", params: OUT_OF_RANGE }),
  );
export const gId = () => gInt().refine((n) => n > 0, { error: "is invalid" });

/**
 * A numeric record id in a reference that may also be a path or a name (`/projects/:id` takes
 * "42" or "group/project"): the id when `ref` is all digits and a column can hold it, `null` when
 * it is all digits but out of range (no such record), `undefined` when it is not numeric.
 */
export function recordId(ref: string | number): number | null | undefined {
  const text = String(ref).trim();
  if (!/^\d+$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_INT ? id : null;
}

/** A trimmed string; numbers are accepted and stringified as Grape does. */
export const gString = () => z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string({ error: "is invalid" }));

/** `name[]=a&name[]=b`, a JSON array, or a comma-separated string; qs objects beyond its array limit too. */
export function toList(v: unknown): unknown {
  if (v === undefined || v === null) return v;
  if (Array.isArray(v)) return v.flatMap((x) => (typeof x === "string" ? x.split(",") : [x])).map(trimItem).filter(notBlank);
  if (typeof v === "string") return v.split(",").map(trimItem).filter(notBlank);
  if (typeof v === "number") return [v];
  if (typeof v === "object") return Object.values(v as object);
  return v;
}
const trimItem = (x: unknown) => (typeof x === "string" ? x.trim() : x);
const notBlank = (x: unknown) => x !== "";

export const gArray = <T extends z.ZodType>(item: T) => z.preprocess(toList, z.array(item, { error: "is invalid" }));
export const gIntArray = () => gArray(gInt());
export const gStringArray = () => gArray(z.string({ error: "is invalid" }));

/**
 * A real calendar day in years 1-9999: V8 rolls 2023-02-30 over to March 2nd, Ruby's Date.parse
 * and PostgreSQL refuse it, and PostgreSQL has no year 0.
 */
const isCalendarDate = (s: string) => {
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s && !s.startsWith("0000");
};

/** YYYY-MM-DD, kept as a string (dates have no time zone). */
export const gDate = () => gString().refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isCalendarDate(s), { error: "is invalid" });

/** The calendar and clock fields of an ISO 8601 prefix: "2024-02-30T10:00" is no time at all. */
const ISO_PREFIX = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;

/**
 * A timestamp as Ruby's Time.parse takes it (ISO 8601 with or without an offset, date-only as UTC
 * midnight, RFC 2822), refused when its calendar day or clock does not exist or its year is
 * outside 1-9999, which PostgreSQL and GitLab's clients could not hold either.
 */
export function parseTimestamp(text: string): Date | undefined {
  const s = text.trim();
  if (s === "") return undefined;
  const iso = ISO_PREFIX.exec(s);
  if (iso) {
    const [, day, hh, mm, ss] = iso;
    if (!isCalendarDate(day)) return undefined;
    if (hh !== undefined && (Number(hh) > 23 || Number(mm) > 59 || Number(ss ?? 0) > 59)) return undefined;
  }
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
  const year = d.getUTCFullYear();
  return Number.isNaN(d.getTime()) || year < 1 || year > 9999 ? undefined : d;
}

/** ISO 8601 timestamps parsed leniently (see parseTimestamp); impossible or far-off ones are invalid. */
export const gDateTime = () =>
  z.preprocess((v) => (typeof v === "string" ? (parseTimestamp(v) ?? v) : v), z.date({ error: "is invalid" }).refine((d) => !Number.isNaN(d.getTime()), { error: "is invalid" }));

/** One of a fixed list: "does not have a valid value" otherwise. */
export const gEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: "does not have a valid value" });

/** GitLab's `None` / `Any` sentinels (case-insensitive) beside a regular value. */
export type Sentinel = "None" | "Any";
export function sentinelOr<T extends z.ZodType>(inner: T) {
  return z.union([
    z.string().transform((s, c) => {
      const l = s.toLowerCase();
      if (l === "none") return "None" as const;
      if (l === "any") return "Any" as const;
      c.addIssue({ code: "custom", message: "is invalid" });
      return z.NEVER;
    }),
    inner,
  ], { error: "is invalid" });
}

export const MAX_PER_PAGE = 100;

/** page / per_page: defaults 1 and 20, per_page clamped to 100, 0 rejected as GitLab does. */
export const paginationParams = {
  page: gInt().default(1).refine((n) => n >= 1, { error: "does not have a valid value" }),
  per_page: gInt()
    .default(20)
    // Grape's except_values: [0] answers alone; negative sizes are a separate "does not have a valid value".
    .refine((n) => n !== 0, { error: "has a value not allowed", abort: true })
    .refine((n) => n > 0, { error: "does not have a valid value" })
    .transform((n) => Math.min(n, MAX_PER_PAGE)),
};
export type Pagination = { page: number; per_page: number };
export const offsetOf = (p: Pagination) => (p.page - 1) * p.per_page;

/** Sort direction as GitLab names it. */
export const gSort = (dflt: "asc" | "desc" = "desc") => gEnum(["asc", "desc"] as const).default(dflt);

/**
 * Formats zod issues as Grape does: "title is missing, labels is invalid".
 * Root-level issues carry a complete message (e.g. "a, b are mutually exclusive").
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  const parts: string[] = [];
  for (const issue of issues) {
    const name = paramName(issue.path);
    if (!name) {
      parts.push(issue.message);
      continue;
    }
    const value = valueAt(input, issue.path);
    // An absent required param is "is missing" whatever message its type carries ("is invalid").
    const message = isMissing(issue, value) ? "is missing" : /^[a-z]/.test(issue.message) ? issue.message : defaultMessage(issue);
    const line = `${name} ${message}`;
    if (!parts.includes(line)) parts.push(line);
  }
  return parts.join(", ");
}

/** Grape's presence check runs first: an absent required param never reaches its type or values check. */
const isMissing = (issue: z.core.$ZodIssue, value: unknown) =>
  value === undefined && (issue.code === "invalid_type" || issue.code === "invalid_union" || issue.code === "invalid_value");

function defaultMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_value") return "does not have a valid value";
  return "is invalid";
}

function paramName(path: readonly PropertyKey[]): string {
  const segs = path.filter((p) => typeof p !== "number").map(String);
  if (segs.length === 0) return "";
  return segs[0] + segs.slice(1).map((s) => `[${s}]`).join("");
}

/** Not knowable from the raw input, e.g. an item of a list that arrived as a comma-separated string. */
const UNKNOWN = Symbol("unknown");

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return UNKNOWN;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** Declares that at most one of the keys may be given: Grape's `mutually_exclusive`. */
export function mutuallyExclusive<T extends Record<string, unknown>>(...keys: (keyof T & string)[]) {
  return (value: T, ctx: z.core.$RefinementCtx<T>) => {
    const given = keys.filter((k) => value[k] !== undefined);
    if (given.length > 1) ctx.addIssue({ code: "custom", path: [], message: `${given.join(", ")} are mutually exclusive` });
  };
}

/** Grape's `at_least_one_of`. */
export function atLeastOneOf<T extends Record<string, unknown>>(...keys: (keyof T & string)[]) {
  return (value: T, ctx: z.core.$RefinementCtx<T>) => {
    if (!keys.some((k) => value[k] !== undefined))
      ctx.addIssue({ code: "custom", path: [], message: `${keys.join(", ")} are missing, at least one parameter must be provided` });
  };
}

/**
 * API::Helpers::PersonalAccessTokensHelpers' access_token_params: the filters of every personal
 * access token list (the gateway-facing admin routes and the accounts finder behind them).
 */
export const accessTokenListParams = {
  ...paginationParams,
  revoked: gBool().optional(),
  state: gEnum(["active", "inactive"] as const).optional(),
  created_before: gDateTime().optional(),
  created_after: gDateTime().optional(),
  last_used_before: gDateTime().optional(),
  last_used_after: gDateTime().optional(),
  expires_before: gDate().optional(),
  expires_after: gDate().optional(),
  search: gString().optional(),
  sort: gString().optional(),
};

/**
 * A file part of a multipart body, as the gateway hands it to routes that declare it
 * (RouteDef.files): its name, type, size and bytes in base64 (binary-safe on the JSON bus).
 * A plain text field of the same name is not a file: "<name> is invalid", as Grape's WorkhorseFile.
 */
export const gFile = () =>
  z.object(
    {
      filename: z.string(),
      content_type: z.string().nullable().optional(),
      size: z.number().int().min(0),
      data: z.string(),
    },
    { error: "is invalid" },
  );
export type UploadedFileParam = z.output<ReturnType<typeof gFile>>;
