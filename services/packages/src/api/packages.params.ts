import type { PackageStatus } from "@collab/packages-contract";

/** Listed when no status is asked for. */
export const DEFAULT_LIST_STATUSES: readonly PackageStatus[] = ["default", "deprecated", "error"];
/** What GET /projects/:id/packages/:package_id shows (GitLab's DETAILED_INFO_STATUSES); others are 404. */
export const DETAILED_STATUSES: readonly PackageStatus[] = ["default", "deprecated"];
/** What can be installed or downloaded (GitLab's INSTALLABLE_STATUSES). */
export const INSTALLABLE_STATUSES: readonly PackageStatus[] = ["default", "hidden", "deprecated"];

/** A cursor as GitLab's keyset paginator writes it: base64 of {"id": N, "_kd": "n"}; a bad one is 400. */
export function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { id?: unknown };
    const id = Number(parsed.id);
    if (Number.isInteger(id) && id > 0 && id <= 2_147_483_647) return id;
  } catch {
    /* below */
  }
  return Number.NaN;
}

export const encodeCursor = (id: number) => Buffer.from(JSON.stringify({ id: String(id), _kd: "n" })).toString("base64");
