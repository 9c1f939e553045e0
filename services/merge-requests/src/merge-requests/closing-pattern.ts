/**
 * Issues a merge request description says it closes, by GitLab's default `issue_closing_pattern`
 * (gitlab.yml): a keyword — close, closes, closed, closing, fix, fixes, fixed, fixing, resolve,
 * resolves, resolved, resolving, implement, implements, implemented, implementing — an optional
 * colon, then one or more issue references separated by commas and/or "and", optionally preceded
 * by "issue"/"issues". A reference is `#12`, `group/project#12` or an issue URL
 * (`…/group/project/-/issues/12`). Matched case-insensitively.
 */
export interface ClosingRef {
  /** null: the merge request's own project. */
  projectPath: string | null;
  iid: number;
}

const KEYWORD = String.raw`\b(?:clos(?:e[sd]?|ing)|fix(?:e[sd]|ing)?|resolv(?:e[sd]?|ing)|implement(?:s|ed|ing)?)`;
const REF = String.raw`(?:[\w.\-/]+)?#\d+|https?:\/\/\S+?\/-\/issues\/\d+`;
const LIST = String.raw`(?:(?:issues? +)?(?:${REF})(?: *,? +and +| *,? *)?)+`;
const PATTERN = new RegExp(String.raw`${KEYWORD}:? +(${LIST})`, "gi");
const ONE_REF = /(?:([\w.\-/]+)?#(\d+))|https?:\/\/[^\s/]+(?::\d+)?\/(\S+?)\/-\/issues\/(\d+)/gi;

export function closingIssueRefs(description: string | null | undefined): ClosingRef[] {
  if (!description) return [];
  const out = new Map<string, ClosingRef>();
  for (const m of description.matchAll(PATTERN)) {
    for (const r of m[1].matchAll(ONE_REF)) {
      const ref: ClosingRef = r[2] !== undefined ? { projectPath: r[1] ?? null, iid: Number(r[2]) } : { projectPath: r[3], iid: Number(r[4]) };
      if (!Number.isSafeInteger(ref.iid) || ref.iid <= 0 || ref.iid > 2_147_483_647) continue;
      out.set(`${ref.projectPath ?? ""}#${ref.iid}`, ref);
    }
  }
  return [...out.values()];
}

/**
 * Every issue reference of these texts (`#12`, `group/project#12`, an issue URL), closing or not,
 * in order, once each: what GitLab's reference extractor finds for related issues.
 */
export function issueRefs(texts: Iterable<string | null | undefined>): ClosingRef[] {
  const out = new Map<string, ClosingRef>();
  for (const text of texts) {
    if (!text) continue;
    for (const r of text.matchAll(ONE_REF)) {
      const ref: ClosingRef = r[2] !== undefined ? { projectPath: r[1] ?? null, iid: Number(r[2]) } : { projectPath: r[3], iid: Number(r[4]) };
      if (!Number.isSafeInteger(ref.iid) || ref.iid <= 0 || ref.iid > 2_147_483_647) continue;
      const key = `${ref.projectPath?.toLowerCase() ?? ""}#${ref.iid}`;
      if (!out.has(key)) out.set(key, ref);
    }
  }
  return [...out.values()];
}
