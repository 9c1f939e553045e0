/**
 * Hostile values for one parameter, as fast-check arbitraries, and their encodings in a path
 * segment, a query string, a JSON body, a form body and bodies of odd content types.
 *
 * A value is kept as the text each encoding needs, since several cannot be a JavaScript value
 * (1e400 and 9223372036854775808 as JSON numbers, invalid UTF-8 bytes, a 20,000-deep JSON array).
 */
import fc from "fast-check";

export interface Hostile {
  /** Class of the value, for grouping failures: "nul", "surrogate", "int-range"… */
  cls: string;
  /** Short printable description of the value (JSON-escaped, truncated). */
  show: string;
  /** Raw JSON text of the value (placed after `"name":`). */
  json: string | Buffer;
  /** Query/form fragment for the key (already percent-encoded), e.g. `k=%00` or `k[]=a&k[]=b`. */
  query: (key: string) => string;
}

const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    // A lone surrogate has no UTF-8 form (encodeURIComponent throws): send its WTF-8 bytes
    // percent-encoded, as a broken client would.
    return [...s].map((ch) => {
      const c = ch.charCodeAt(0);
      if (c >= 0xd800 && c <= 0xdfff) return `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`;
      return encodeURIComponent(ch);
    }).join("");
  }
};

/** qs-style query encoding of a JSON-able value under `key`. */
export function qsEncode(key: string, v: unknown, depth = 0): string {
  if (v === null || v === undefined) return `${enc(key)}`;
  if (Array.isArray(v)) return v.length === 0 ? `${enc(key)}[]=` : v.map((x) => qsEncode(`${key}[]`, x, depth + 1)).join("&");
  if (typeof v === "object") {
    const entries = Object.entries(v as object);
    return entries.length === 0 ? `${enc(key)}[]=` : entries.map(([k, x]) => qsEncode(`${key}[${k}]`, x, depth + 1)).join("&");
  }
  return `${enc(key)}=${enc(String(v))}`;
}

const preview = (s: string) => {
  const t = JSON.stringify(s) ?? String(s);
  return t.length > 120 ? `${t.slice(0, 100)}…(${s.length} chars)` : t;
};

/** A JSON-able value: same value in JSON and qs form. */
export const value = (cls: string, v: unknown): Hostile => ({
  cls,
  show: preview(typeof v === "string" ? v : JSON.stringify(v) ?? String(v)).replace(/^"(.*)"$/s, typeof v === "string" ? '"$1"' : "$1"),
  json: JSON.stringify(v),
  query: (k) => qsEncode(k, v),
});

/** A value whose JSON text and query text are given separately. */
export const raw = (cls: string, show: string, json: string | Buffer, query: string): Hostile => ({ cls, show, json, query: (k) => `${enc(k)}=${query}` });

const DEPTH = 20_000;
export const HUGE = 100_000;

const nulStrings = fc.oneof(
  fc.constantFrom("\u0000", "a\u0000b", "fuzz\u0000", "\u0000\u0000\u0000"),
  fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })).map(([a, b]) => `${a}\u0000${b}`),
);

const surrogates = fc.constantFrom("\ud800", "a\udfffb", "\udc00\ud800", "x\ud83d");

/**
 * Valid Unicode that is odd for display, trimming, blank checks, collation and byte lengths, by
 * class. GitLab stores all of it; only NUL and lone surrogates (which PostgreSQL cannot hold) are
 * refused, so a route must answer < 500 and store what it accepts.
 */
export const UNICODE_ODD = {
  // LRE RLE PDF LRO RLO, LRI RLI FSI PDI
  bidi: ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u202egnp.exe"],
  // ZWSP ZWNJ ZWJ WJ, BOM
  "zero-width": ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200b\u200b\u200b"],
  // C0 but tab and newline, DEL, C1 (NEL included), an ANSI escape
  control: ["\u0001", "\u0008", "\u000b", "\u000c", "\r", "\u001b[31mred\u001b[0m", "\u001f", "\u007f", "\u0080", "\u0085", "\u009b", "\u009f"],
  // single, ZWJ sequences, flags, skin tones, keycaps, variation selectors
  emoji: ["😀", "👩‍👩‍👧‍👦", "🏳️‍🌈", "🇺🇸", "🇪🇺🇯🇵", "👍🏽", "🧑🏽‍💻", "❤️", "#️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"],
  // combining marks, alone, stacked, on a base
  combining: ["e\u0301", "\u0301", "a\u0308\u0308\u0308\u0308", "Z\u0338\u0322a\u0336l\u0335g\u0337o", "\u20dd", "\u0e01\u0e49\u0e49\u0e49"],
  // noncharacters and the last code point: valid UTF-8 all the same
  noncharacter: ["\ufffe", "\uffff", "\udbff\udfff", "\ufdd0"],
} as const;

/** Every UNICODE_ODD string, with its class. */
export const UNICODE_ODD_STRINGS: { cls: string; s: string }[] = Object.entries(UNICODE_ODD).flatMap(([cls, list]) => list.map((s) => ({ cls, s })));

/**
 * JSON text of a string with every non-ASCII character as a \u escape (surrogate pairs as two), as
 * clients with ASCII-only JSON send it (Python's json.dumps): the parser must give the same string.
 */
export const asciiJson = (s: string) => JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Where the odd characters sit in a value: alone, around or inside ordinary text. */
const placed = (s: string, where: number) => [s, `fuzz ${s}`, `${s}fuzz`, `fu${s}zz`, `${s} ${s} ${s}`][where];

/** Lone surrogates as a JSON body carries them: `\ud800` escapes, alone or beside a valid pair. */
const loneSurrogateEscapes = ["\\ud800", "fuzz\\udfff", "\\ud83d\\ude00\\ude00", "\\ud83d", "\\udc00\\ud800"];

/**
 * Hostile values in groups, so that each parameter can be given one of every kind (the groups are
 * what a run is stratified by; inside a group fast-check picks the value).
 */
export const HOSTILE_GROUPS = {
  "wrong-type": fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<unknown>([], ["a", "b"], [1, [2]], [{ a: 1 }], {}, { a: 1 }, { $gt: "" }, 123, 1.5, -0, true, false, null, "abc", "", " ", "[]", "{}").map((v) => value("wrong-type", v)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => value("json-value", v)) },
  ),
  nul: fc.oneof(
    { weight: 3, arbitrary: nulStrings.map((s) => value("nul", s)) },
    { weight: 1, arbitrary: nulStrings.map((s) => value("nul-in-array", [s])) },
    { weight: 1, arbitrary: nulStrings.map((s) => value("nul-in-object-key", { [s]: "x" })) },
  ),
  // lone surrogates, invalid UTF-8 (raw bytes in a JSON body, percent-encoded in a query or form)
  encoding: fc.oneof(
    surrogates.map((s) => value("surrogate", s)),
    fc.constantFrom("%ff%fe", "a%ffb", "%c0%80", "%ed%a0%80", "%f8%88%80%80%80", "%", "%zz", "%e2%82").map((q) => {
      const bytes = Buffer.from(q.replace(/%([0-9a-f]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))), "latin1");
      return raw("invalid-utf8", q, Buffer.concat([Buffer.from('"'), bytes, Buffer.from('"')]), q);
    }),
  ),
  // out-of-range and odd numbers, as JSON numbers and as strings
  integer: fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .constantFrom("2147483648", "9223372036854775808", "-1", "1e400", "-1e400", "99999999999999999999999999999999", "-2147483649", "0", "1.5", "1e308", "4294967296", "18446744073709551616")
        .chain((n) => fc.constantFrom(raw("int-range", n, n, enc(n)), value("int-range-string", n))),
    },
    { weight: 1, arbitrary: fc.constantFrom("0x10", " 1 ", "1e3", "NaN", "Infinity", "-0", "+1", "01", "1_000", "١٢").map((s) => value("int-format", s)) },
    { weight: 1, arbitrary: fc.constantFrom(["2147483648"], ["9223372036854775808"], [-1], ["1e400"], ["abc"], [2147483648]).map((v) => value("int-range-array", v)) },
  ),
  date: fc
    .constantFrom(
      "+275760-09-13T00:00:00Z",
      "+275760-09-14T00:00:00Z",
      "-271821-04-20T00:00:00Z",
      "2024-02-30T10:00:00Z",
      "2024-02-30",
      "0000-00-00",
      "0000-01-01",
      "2024-13-45",
      "9999-12-31T23:59:59Z",
      "10000-01-01",
      "-000001-01-01T00:00:00Z",
      "1900-01-01T00:00:00+25:00",
      "2024-01-01T24:00:00Z",
      "2024-06-01T10:00:00.123456789Z",
    )
    .map((s) => value("date", s)),
  huge: fc.oneof(
    fc.constantFrom("a", "1", "é", "\u0000").map((c) => value(c === "1" ? "huge-digits" : c === "\u0000" ? "huge-nul" : "huge-string", c.repeat(c === "é" ? HUGE / 2 : HUGE))),
    fc.constant(value("huge-array", Array.from({ length: 2000 }, (_, i) => String(i)))),
  ),
  // deep JSON (in a query or form: a long bracket chain)
  deep: fc.oneof(
    fc.constantFrom("array", "object").map((k) =>
      raw(
        "deep-json",
        `${k} nested ${DEPTH}`,
        k === "array" ? "[".repeat(DEPTH) + "]".repeat(DEPTH) : '{"a":'.repeat(DEPTH) + "1" + "}".repeat(DEPTH),
        "1",
      ),
    ),
    fc.constant<Hostile>({ cls: "deep-query", show: "k[a][a]… x2000", json: `${'{"a":'.repeat(2000)}1${"}".repeat(2000)}`, query: (k) => `${enc(k)}${"[a]".repeat(2000)}=1` }),
  ),
  // valid but odd Unicode (UNICODE_ODD), raw or as ASCII-only JSON; lone surrogate escapes in JSON
  unicode: fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...UNICODE_ODD_STRINGS), fc.nat(4)).map(([{ cls, s }, at]) => value(`unicode-${cls}`, placed(s, at))) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...UNICODE_ODD_STRINGS), fc.nat(4)).map(([{ cls, s }, at]) => {
        const v = placed(s, at);
        return { ...value(`unicode-${cls}-ascii-json`, v), json: asciiJson(v) };
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...loneSurrogateEscapes).map((e) => raw("unicode-lone-surrogate", `"${e}"`, `"${e}"`, enc(JSON.parse(`"${e}"`)))) },
  ),
  // strings that are odd for SQL, LIKE, paths and markup
  "odd-string": fc.oneof(
    fc
      .constantFrom("' OR 1=1 --", "%", "_", "\\", "%_\\", "../../etc/passwd", "<script>alert(1)</script>", "{{7*7}}", "$(id)", "\r\nX-Injected: 1", "\t", "😀", "\u202e", "a".repeat(256), "NULL", "undefined")
      .map((s) => value("odd-string", s)),
    fc.string({ unit: "binary", maxLength: 24 }).map((s) => value("random-string", s)),
  ),
} satisfies Record<string, fc.Arbitrary<Hostile>>;

export type HostileGroup = keyof typeof HOSTILE_GROUPS;
export const GROUP_NAMES = Object.keys(HOSTILE_GROUPS) as HostileGroup[];

/** The groups that most often get past validation to the database. */
export const PRIORITY_GROUPS: readonly HostileGroup[] = ["nul", "integer", "date", "unicode"];

/** Any hostile value, PRIORITY_GROUPS weighted up. */
export const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  ...GROUP_NAMES.map((g) => ({ weight: PRIORITY_GROUPS.includes(g) ? 3 : g === "wrong-type" ? 2 : 1, arbitrary: HOSTILE_GROUPS[g] as fc.Arbitrary<Hostile> })),
);

/** Raw path-segment texts (already encoded) for a path parameter. */
export const PATH_EXAMPLES = ["%00", "%ff%fe", "2147483648", "9223372036854775808", "-1", "abc"] as const;

export const hostilePathSegment: fc.Arbitrary<{ cls: string; seg: string }> = fc.oneof(
  fc.constantFrom(...PATH_EXAMPLES).map((seg) => ({ cls: "path-example", seg })),
  fc.constantFrom("0", "1e400", "99999999999999999999999999", "-2147483649", "1.5", "0x1", "%20", "%2F", "%2e%2e", "a%00b", "%ed%a0%80", "%c0%80", "%", "%zz", "1;2", "1,2", "+1", "%EF%BF%BF").map((seg) => ({ cls: "path-odd", seg })),
  fc.constant({ cls: "path-huge", seg: "9".repeat(5000) }),
  fc.constant({ cls: "path-huge", seg: "a".repeat(5000) }),
  nulStrings.map((s) => ({ cls: "path-nul", seg: enc(s) })),
  fc.tuple(fc.constantFrom(...UNICODE_ODD_STRINGS), fc.constantFrom("", "1", "fuzz")).map(([{ cls, s }, around]) => ({ cls: `path-unicode-${cls}`, seg: enc(`${around}${s}`) })),
  fc.string({ unit: "binary", minLength: 1, maxLength: 16 }).map((s) => ({ cls: "path-random", seg: enc(s) })),
);

/** Odd request bodies of a write: the parameter inside a body the gateway should not parse, or a broken one. */
export interface OddBody {
  cls: string;
  contentType: string;
  headers?: Record<string, string>;
  /** The body for the route's first (required) param `key`, and the baseline params of the route. */
  body: (key: string, base: Record<string, unknown>) => Buffer;
}

const ODD_BODIES: OddBody[] = [
  { cls: "xml-body", contentType: "application/xml", body: (k) => Buffer.from(`<?xml version="1.0"?><${k}>1</${k}>`) },
  { cls: "text-body", contentType: "text/plain", body: (k) => Buffer.from(`${k}=1`) },
  { cls: "octet-body", contentType: "application/octet-stream", body: () => Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x7b, 0x22]) },
  { cls: "json-as-text", contentType: "text/plain", body: (k) => Buffer.from(JSON.stringify({ [k]: "1" })) },
  { cls: "broken-json", contentType: "application/json", body: (k) => Buffer.from(`{"${k}": `) },
  { cls: "json-not-object", contentType: "application/json", body: () => Buffer.from("[1,2,3]") },
  { cls: "json-scalar", contentType: "application/json", body: () => Buffer.from('"just a string"') },
  { cls: "json-null", contentType: "application/json", body: () => Buffer.from("null") },
  { cls: "json-utf16", contentType: "application/json; charset=utf-16", body: (k) => Buffer.from(JSON.stringify({ [k]: "1" }), "utf16le") },
  { cls: "json-bad-charset", contentType: "application/json; charset=klingon", body: (k) => Buffer.from(JSON.stringify({ [k]: "1" })) },
  { cls: "form-bad-charset", contentType: "application/x-www-form-urlencoded; charset=klingon", body: (k) => Buffer.from(`${k}=1`) },
  { cls: "multipart-no-boundary", contentType: "multipart/form-data", body: (k) => Buffer.from(`${k}=1`) },
  {
    cls: "multipart-broken",
    contentType: "multipart/form-data; boundary=XyZ",
    body: (k) => Buffer.from(`--XyZ\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n1\r\n--XyZ`),
  },
  { cls: "gzip-lie", contentType: "application/json", headers: { "Content-Encoding": "gzip" }, body: () => Buffer.from([0x1f, 0x8b, 0x08, 0x00]) },
  { cls: "unknown-encoding", contentType: "application/json", headers: { "Content-Encoding": "x-klingon" }, body: (k) => Buffer.from(JSON.stringify({ [k]: "1" })) },
  { cls: "xml-json-type", contentType: "application/json", body: (k) => Buffer.from(`<${k}>1</${k}>`) },
  { cls: "deep-json-body", contentType: "application/json", body: () => Buffer.from("[".repeat(DEPTH) + "]".repeat(DEPTH)) },
  { cls: "json-array-of-params", contentType: "application/json", body: (_k, base) => Buffer.from(JSON.stringify([base])) },
  // 1 MB of raw control bytes: six times that once the params are JSON on the bus, over the body limit
  {
    cls: "form-control-flood",
    contentType: "application/x-www-form-urlencoded",
    body: (k, base) => Buffer.concat([Buffer.from([...Object.entries(base).filter(([n]) => n !== k).map(([n, v]) => `${qsEncode(n, v)}&`), `${k}=`].join("")), Buffer.alloc(1_000_000, 1)]),
  },
  { cls: "json-number", contentType: "application/json", body: () => Buffer.from("1") },
  { cls: "json-true", contentType: "application/json", body: () => Buffer.from("true") },
];

/**
 * JSON bodies that are not a params object (or hold none), sent on every write route taking
 * params: GitLab (Grape) reads params only from a JSON object, so they carry none.
 */
export const BODY_EXAMPLES: OddBody[] = [
  { cls: "json-null", contentType: "application/json", body: () => Buffer.from("null") },
  { cls: "json-empty-array", contentType: "application/json", body: () => Buffer.from("[]") },
  { cls: "json-array", contentType: "application/json", body: () => Buffer.from("[1]") },
  { cls: "json-empty-body", contentType: "application/json", body: () => Buffer.alloc(0) },
  { cls: "json-empty-object", contentType: "application/json", body: () => Buffer.from("{}") },
];

export const ODD_BODY_KINDS = ODD_BODIES.length;
export const oddBody: fc.Arbitrary<OddBody> = fc.constantFrom(...ODD_BODIES);
