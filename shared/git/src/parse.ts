/** Small parsing helpers for git's machine formats (NUL-separated fields, hex object ids). */

/** A full object id (SHA-1 or SHA-256). */
export const isObjectId = (s: string) => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(s);
/** An abbreviated or full object id as a user may give it. */
export const isShortId = (s: string) => /^[0-9a-f]{4,64}$/i.test(s);
export const ZERO_ID = "0000000000000000000000000000000000000000";

/**
 * Splits the output of a format whose `n` fields each end with NUL (`%x00`/`%00`) and whose records
 * git ends with a newline: messages may hold newlines, never NUL.
 */
export function splitRecords(text: string, n: number): string[][] {
  const parts = text.split("\0");
  const records: string[][] = [];
  for (let i = 0; i + n <= parts.length; i += n) {
    const fields = parts.slice(i, i + n);
    if (i > 0) fields[0] = fields[0].replace(/^\n/, "");
    records.push(fields);
  }
  return records;
}

/** Splits NUL-terminated output (`-z`) into its entries. */
export function splitNul(text: string): string[] {
  const parts = text.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** The values of a one-field `%(…)%00` for-each-ref format (git ends each record with a newline). */
export const splitFieldLines = (text: string) => splitNul(text).map((s) => s.replace(/^\n/, "")).filter((s) => s !== "");

/** `git log --since`-style dates reach git as one ISO argument we made, never as user text. */
export function isoDate(value: string | Date | undefined, what: string): string | undefined {
  if (value === undefined) return undefined;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) throw new TypeError(`${what} is not a date`);
  return d.toISOString();
}

/** Paths given by users are literal: ":(glob)*" or ":!x" must name files, not pathspec magic. */
export const LITERAL_PATHS = { GIT_LITERAL_PATHSPECS: "1" };
