import { integer, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { mergeRequestsSchema } from "./schema";

/** Who approved which merge request (owned by the approvals module; the list filters read it). */
export const approvals = mergeRequestsSchema.table(
  "approvals",
  {
    mergeRequestId: integer("merge_request_id").notNull(),
    userId: integer("user_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [primaryKey({ columns: [t.mergeRequestId, t.userId] })],
);
