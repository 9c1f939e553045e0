/**
 * GitLab's default `issue_closing_pattern` (gitlab.yml), the one definition of it: a keyword —
 * close, closes, closed, closing, fix, fixes, fixed, fixing, resolve, resolves, resolved,
 * resolving, implement, implements, implemented, implementing — an optional colon, then one or
 * more references separated by commas and/or "and", optionally preceded by "issue"/"issues". A
 * reference is `#12`, `group/project#12`, an issue URL (`…/group/project/-/issues/12`) or an
 * external tracker's key (`PROJ-12`). Matched case-insensitively. Callers read the references they
 * know out of each statement (merge requests GitLab's issues, Jira its keys).
 */
const KEYWORD = String.raw`\b(?:clos(?:e[sd]?|ing)|fix(?:e[sd]|ing)?|resolv(?:e[sd]?|ing)|implement(?:s|ed|ing)?)`;
const REF = String.raw`(?:[\w.\-/]+)?#\d+|https?:\/\/\S+?\/-\/issues\/\d+|[A-Z][A-Z0-9_]+-\d+`;
const LIST = String.raw`(?:(?:issues? +)?(?:${REF})(?: *,? +and +| *,? *)?)+`;
const PATTERN = new RegExp(String.raw`${KEYWORD}:? +(${LIST})`, "gi");

/** The reference lists of the closing statements in a text, in order. */
export function closingStatements(text: string | null | undefined): string[] {
  return text ? [...text.matchAll(PATTERN)].map((m) => m[1]) : [];
}
