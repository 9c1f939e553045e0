import type { ClientKeyRow } from "../db/schema";

/**
 * GitLab's client key. The spec does not show this record, so its DSN keeps GitLab's field name
 * `sentry_dsn`: SDKs of that protocol are configured from it, and clients read it by that name.
 */
export interface ClientKeyEntity {
  id: number;
  active: boolean;
  public_key: string;
  sentry_dsn: string;
}

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
