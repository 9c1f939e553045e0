import type { ClientKeyEntity } from "@collab/error-tracking-contract";
import type { ClientKeyRow } from "../db/schema";

/** GitLab's client key (see the contract's ClientKeySchema). */
export type { ClientKeyEntity };

/** `<scheme>://<public_key>@<host[:port]>[/relative root]/api/v4/error_tracking/collector/<project_id>` */
export function dsnOf(baseUrl: string, publicKey: string, projectId: number): string {
  const url = new URL(baseUrl);
  const root = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${publicKey}@${url.host}${root}/api/v4/error_tracking/collector/${projectId}`;
}

export const presentClientKey = (baseUrl: string, row: ClientKeyRow): ClientKeyEntity => ({
  id: row.id,
  active: row.active,
  public_key: row.publicKey,
  sentry_dsn: dsnOf(baseUrl, row.publicKey, row.projectId),
});
