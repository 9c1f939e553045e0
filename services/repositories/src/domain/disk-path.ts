import { createHash } from "node:crypto";
import type { ContainerKind } from "@collab/repositories-contract";

/**
 * GitLab's hashed storage: a repository's folder comes from the SHA-256 of its container's id, two
 * levels of two hex digits deep, so renames and transfers never move it and no folder grows too
 * large. Projects: `@hashed/ab/cd/<hash>.git`; snippets: `@snippets/ab/cd/<hash>.git`.
 */
export function hashedDiskPath(kind: ContainerKind, id: number): string {
  const hash = createHash("sha256").update(String(id)).digest("hex");
  const root = kind === "project" ? "@hashed" : "@snippets";
  return `${root}/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}.git`;
}
