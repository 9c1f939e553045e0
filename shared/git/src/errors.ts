/**
 * What a repository operation refuses, in GitLab's words. Plain errors (no moleculer here): the
 * repositories service maps `kind` to a status — invalid → 400, not_found → 404, conflict → 409
 * (or 400 where GitLab answers so), stale → the caller's choice (a ref moved under us).
 */
export type RepositoryErrorKind = "invalid" | "not_found" | "conflict" | "stale";

export class RepositoryError extends Error {
  constructor(
    readonly kind: RepositoryErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "RepositoryError";
  }
}

export const invalid = (message: string) => new RepositoryError("invalid", message);
export const missing = (message: string) => new RepositoryError("not_found", message);

/** A merge or rebase that git cannot finish on its own; `paths` are the conflicting files. */
export class MergeConflictError extends RepositoryError {
  constructor(readonly paths: string[]) {
    super("conflict", paths.length > 0 ? `Conflicts in ${paths.join(", ")}` : "Merge conflict");
    this.name = "MergeConflictError";
  }
}
