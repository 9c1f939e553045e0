import { closingStatements } from "@collab/work-items";

/** Issues a merge request description says it closes, by GitLab's default closing pattern (@collab/work-items). */
export interface ClosingRef {
  /** null: the merge request's own project. */
  projectPath: string | null;
  iid: number;
}

const ONE_REF = /(?:([\w.\-/]+)?#(\d+))|https?:\/\/[^\s/]+(?::\d+)?\/(\S+?)\/-\/issues\/(\d+)/gi;

export function closingIssueRefs(description: string | null | undefined): ClosingRef[] {
  if (!description) return [];
  const out = new Map<string, ClosingRef>();
  for (const statement of closingStatements(description)) {
    for (const r of statement.matchAll(ONE_REF)) {
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
