/**
 * The one way Collab touches git repositories: the `git` CLI (Debian's, ≥ 2.39 for
 * `merge-tree --write-tree`), run with an isolated environment. Never a hand-written git format.
 */
export * from "./run";
export * from "./init";
export * from "./transport";
export * from "./hooks";
