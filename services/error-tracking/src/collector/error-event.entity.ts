import type { ErrorEventRow } from "../db/schema";

/** A stored error event as the bus answers it (no HTTP route: GitLab has no read API for them). */
export const presentErrorEvent = (row: ErrorEventRow) => ({
  id: row.id,
  project_id: row.projectId,
  event_id: row.eventId,
  exception_type: row.exceptionType,
  exception_message: row.exceptionMessage,
  platform: row.platform,
  environment: row.environment,
  occurred_at: row.occurredAt.toISOString(),
  received_at: row.createdAt.toISOString(),
  payload: row.payload,
});
