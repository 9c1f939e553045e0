import { createHash } from "node:crypto";

/** A line of a file's diff a DiffNote may sit on: its numbers in the old and the new file (null on the side it is not in). */
export interface DiffLine {
  oldLine: number | null;
  newLine: number | null;
}

/**
 * GitLab's line_code (Gitlab::Git.diff_line_code): the file's path hashed, then the line's old and
 * new positions; an added line carries the old file's next line, a removed one the new file's.
 */
export function lineCode(path: string, oldPos: number, newPos: number): string {
  return `${createHash("sha1").update(path).digest("hex")}_${oldPos}_${newPos}`;
}

/**
 * The line of a unified diff (from its first hunk header, as GitLab's Diff entity carries it) that
 * a position names: both numbers for an unchanged line, only new_line for an added one, only
 * old_line for a removed one. Null when the diff shows no such line. Answers the line code too.
 */
export function findDiffLine(path: string, diff: string, at: { old_line?: number; new_line?: number }): { line: DiffLine; lineCode: string } | null {
  if (at.old_line === undefined && at.new_line === undefined) return null;
  let oldPos = 0;
  let newPos = 0;
  for (const text of diff.split("\n")) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      oldPos = Number(hunk[1]) - 1;
      newPos = Number(hunk[2]) - 1;
      continue;
    }
    const kind = text[0];
    let line: DiffLine | null = null;
    if (kind === " ") line = { oldLine: ++oldPos, newLine: ++newPos };
    else if (kind === "-") line = { oldLine: ++oldPos, newLine: null };
    else if (kind === "+") line = { oldLine: null, newLine: ++newPos };
    if (!line) continue;
    // GitLab's positions of a line: a removed line's new position is the next new line, an added one's old position the next old line.
    if ((at.old_line ?? null) === line.oldLine && (at.new_line ?? null) === line.newLine) return { line, lineCode: lineCode(path, line.oldLine ?? oldPos + 1, line.newLine ?? newPos + 1) };
  }
  return null;
}
