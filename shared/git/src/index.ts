/**
 * The one way Collab touches git repositories: the `git` CLI (Debian's, ≥ 2.39 for
 * `merge-tree --write-tree`), run with an isolated environment. Never a hand-written git format.
 * Every operation takes a bare repository's path; user text reaches git after `--`, inside one
 * `--opt=value` argument or on stdin, never as an option of its own.
 */
export * from "./run";
export { RepositoryError, MergeConflictError, type RepositoryErrorKind } from "./errors";
export { isObjectId, isShortId, ZERO_ID } from "./parse";
export * from "./objects";
export * from "./refs";
export * from "./log";
export * from "./diff";
export * from "./tree";
export * from "./blob";
export * from "./blame";
export * from "./commit";
export * from "./merge";
export * from "./pick";
export * from "./stream";
export * from "./archive";
export * from "./copy";
export * from "./fixtures";
export * from "./init";
export * from "./transport";
export * from "./hooks";
