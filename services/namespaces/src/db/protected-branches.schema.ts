import { boolean, integer, pgSchema, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
// schema.ts re-exports this file: projects is used only inside lazy references() callbacks.
import { projects } from "./schema";

const namespacesSchema = pgSchema("namespaces");

/**
 * GitLab's protected branches: a name or wildcard (`release/*`) with one access level each for
 * push, merge and unprotect (GitLab allows several per action; the API here takes one).
 */
export const protectedBranches = namespacesSchema.table(
  "protected_branches",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    pushAccessLevel: integer("push_access_level").notNull().default(40),
    mergeAccessLevel: integer("merge_access_level").notNull().default(40),
    unprotectAccessLevel: integer("unprotect_access_level").notNull().default(40),
    allowForcePush: boolean("allow_force_push").notNull().default(false),
    codeOwnerApprovalRequired: boolean("code_owner_approval_required").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("protected_branches_project_name_idx").on(t.projectId, t.name)],
);

/**
 * Projects whose default branch protection has been applied once: the default branch is
 * protected the first time anyone looks, and stays unprotected if a maintainer removes it.
 */
export const protectedBranchDefaults = namespacesSchema.table(
  "protected_branch_defaults",
  { projectId: integer("project_id").notNull().references(() => projects.id, { onDelete: "cascade" }) },
  (t) => [primaryKey({ columns: [t.projectId] })],
);

export type ProtectedBranchRow = typeof protectedBranches.$inferSelect;
