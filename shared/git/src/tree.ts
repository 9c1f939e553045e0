import { gitText } from "./run";
import { splitNul } from "./parse";
import { invalid } from "./errors";
import { batchCheck, resolveCommit } from "./objects";

/** GitLab's TreeObject: a directory (tree), file (blob) or submodule (commit) at a path. */
export interface TreeEntry {
  id: string;
  name: string;
  type: "tree" | "blob" | "commit";
  path: string;
  /** Six octal digits, as GitLab pads it (040000 for a tree). */
  mode: string;
}

export interface ListTreeOptions {
  /** Directory inside the repository; the root when omitted. */
  path?: string;
  recursive?: boolean;
  page?: number;
  perPage?: number;
  /** Keyset pagination: the page starts after the entry with this path (GitLab's page_token). */
  after?: string;
}

/**
 * A repository path without leading/trailing slashes ("" is the root); null for one no tree can
 * hold (".", ".." or empty components, control characters), which git would read relative to cwd.
 */
export function normalizePath(path: string | undefined): string | null {
  const p = (path ?? "").replace(/^\/+|\/+$/g, "");
  if (p === "") return "";
  if (/[\0\n\r]/.test(p) || p.split("/").some((c) => c === "" || c === "." || c === "..")) return null;
  return p;
}

/**
 * The entries of a directory at a ref, trees first as GitLab lists them, one page of them. Null when
 * the ref names no commit or the path is no directory there (GitLab's 404 "Tree Not Found").
 */
export async function listTree(
  cwd: string,
  ref: string,
  o: ListTreeOptions = {},
): Promise<{ entries: TreeEntry[]; hasNext: boolean; total: number } | null> {
  const commit = await resolveCommit(cwd, ref);
  if (!commit) return null;
  const dir = normalizePath(o.path);
  if (dir === null) return null;
  // The directory is looked up by "<sha>:<path>" on stdin; ls-tree then gets only its hex id.
  const [tree] = await batchCheck(cwd, [dir === "" ? `${commit}^{tree}` : `${commit}:${dir}`]);
  if (tree?.type !== "tree") return null;
  const out = await gitText(cwd, ["ls-tree", "-z", ...(o.recursive ? ["-r", "-t"] : []), tree.id]);
  const all = splitNul(out).map((line): TreeEntry => {
    const tab = line.indexOf("\t");
    const [mode, type, id] = line.slice(0, tab).split(" ");
    const rel = line.slice(tab + 1);
    return {
      id,
      name: rel.slice(rel.lastIndexOf("/") + 1),
      type: type as TreeEntry["type"],
      path: dir === "" ? rel : `${dir}/${rel}`,
      mode: mode.padStart(6, "0"),
    };
  });
  const sorted = [...all.filter((e) => e.type === "tree"), ...all.filter((e) => e.type !== "tree")];
  const perPage = o.perPage ?? 20;
  let start = ((o.page ?? 1) - 1) * perPage;
  if (o.after !== undefined) {
    const at = sorted.findIndex((e) => e.path === o.after);
    if (at < 0) throw invalid("page_token is invalid");
    start = at + 1;
  }
  return { entries: sorted.slice(start, start + perPage), hasNext: sorted.length > start + perPage, total: sorted.length };
}
