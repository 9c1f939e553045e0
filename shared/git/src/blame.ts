import { GitError, gitText } from "./run";
import { invalid } from "./errors";
import { batchCheck, readCommits, resolveCommit, type CommitData } from "./objects";
import { normalizePath } from "./tree";

/** GitLab's blame range: consecutive lines last changed by the same commit. */
export interface BlameRange {
  commit: CommitData;
  lines: string[];
}

/** Parses `blame --porcelain`: each line's commit from its header, its text from the tab-led line. */
export function parsePorcelain(out: string): { id: string; line: string }[] {
  const result: { id: string; line: string }[] = [];
  let current = "";
  for (const row of out.split("\n")) {
    const header = /^([0-9a-f]{40,64}) \d+ \d+(?: \d+)?$/.exec(row);
    if (header) current = header[1];
    else if (row.startsWith("\t")) result.push({ id: current, line: row.slice(1) });
  }
  return result;
}

/**
 * Who last changed each line of a file at a ref, in GitLab's blame shape; `range` is 1-based and
 * inclusive. Null when the ref or the file does not exist.
 */
export async function blame(cwd: string, ref: string, filePath: string, range?: { start: number; end: number }): Promise<BlameRange[] | null> {
  const path = normalizePath(filePath);
  const commit = await resolveCommit(cwd, ref);
  if (!commit || !path) return null;
  const [file] = await batchCheck(cwd, [`${commit}:${path}`]);
  if (file?.type !== "blob") return null;
  const args = ["blame", "--porcelain"];
  if (range) {
    if (!Number.isInteger(range.start) || !Number.isInteger(range.end) || range.start < 1 || range.end < range.start) {
      throw invalid("range[start] and range[end] must be positive and in order");
    }
    args.push(`-L${range.start},${range.end}`);
  }
  let out: string;
  try {
    out = await gitText(cwd, [...args, commit, "--", path]);
  } catch (e) {
    // "file has only N lines": a range past the end is the caller's mistake, not a failure.
    if (range && e instanceof GitError) throw invalid("range[start] and range[end] must be within the file");
    throw e;
  }
  const rows = parsePorcelain(out);
  const commits = await readCommits(cwd, rows.map((r) => r.id));
  const ranges: BlameRange[] = [];
  for (const { id, line } of rows) {
    const last = ranges[ranges.length - 1];
    if (last && last.commit.id === id) last.lines.push(line);
    else ranges.push({ commit: commits.get(id)!, lines: [line] });
  }
  return ranges;
}
