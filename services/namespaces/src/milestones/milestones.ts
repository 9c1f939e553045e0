import { rubyInspect } from "../shared/paths";
import { badRequestMessage, isUniqueViolation, pgErrorOf, validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import { milestones, namespaces, projects, type MilestoneRow } from "../db/schema";
import { sanitizeText } from "../shared/sanitize";

/** A project (with its direct group, if any) or a group, owning milestones. */
export type MilestoneContainer = { kind: "project"; id: number; parentGroupId: number | null } | { kind: "group"; id: number };

/** Timebox#uniqueness_of_title's message. */
export const MILESTONE_TITLE_TAKEN = "already being used for another group or project milestone.";

/**
 * How milestone model errors are answered. GitLab's milestone_responses.rb actually renders
 * `render_api_error!("Failed to create milestone #{errors.messages}", 400)`, a string embedding
 * Ruby's hash inspect; this API answers the structured `{"message": {field: [...]}}` form.
 */
export const milestoneInvalid = (errors: Record<string, string[]>) => validationFailed(errors);
/** Create failures: GitLab's milestone_responses.rb embeds the errors hash in a string. */
export const milestoneCreateFailed = (errors: Record<string, string[]>) => badRequestMessage(`Failed to create milestone ${rubyInspect(errors)}`);

type Errors = Record<string, string[]>;

/** Timebox#title= ignores blank values and sanitizes HTML away. */
const titleOf = (raw: string | null | undefined) => (typeof raw === "string" && raw.trim() !== "" ? sanitizeText(raw) : null);

/** "" and null clear a date. */
const dateOf = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === "" ? null : v);

function validateDates(start: string | null, due: string | null, errors: Errors) {
  if (start !== null && due !== null && due < start) errors.due_date = ["must be greater than start date"];
}

/**
 * Whether another milestone already uses the title where GitLab looks: for a project, the project
 * and its direct group; for a group, the group and the projects directly in it.
 */
async function titleTaken(db: Db, container: MilestoneContainer, title: string, exceptId?: number): Promise<boolean> {
  const where =
    container.kind === "project"
      ? or(eq(milestones.projectId, container.id), container.parentGroupId !== null ? eq(milestones.groupId, container.parentGroupId) : undefined)
      : or(eq(milestones.groupId, container.id), inArray(milestones.projectId, db.select({ id: projects.id }).from(projects).where(eq(projects.namespaceId, container.id))));
  const [hit] = await db
    .select({ id: milestones.id })
    .from(milestones)
    .where(and(where, eq(milestones.title, title), exceptId !== undefined ? ne(milestones.id, exceptId) : undefined))
    .limit(1);
  return hit !== undefined;
}

export interface CreateMilestoneInput {
  title: string;
  description?: string | null;
  due_date?: string | null;
  start_date?: string | null;
}

/**
 * POST .../milestones. The iid is the container's next one, allocated under a row lock on the
 * project or group so concurrent creations queue up; the unique (container, iid) index backs it.
 */
export async function createMilestone(db: Db, container: MilestoneContainer, p: CreateMilestoneInput): Promise<MilestoneRow> {
  const title = titleOf(p.title);
  const errors: Errors = {};
  if (title === null) errors.title = ["can't be blank"];
  validateDates(dateOf(p.start_date) ?? null, dateOf(p.due_date) ?? null, errors);
  if (Object.keys(errors).length) throw milestoneCreateFailed(errors);

  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        if (container.kind === "project") await tx.execute(sql`SELECT 1 FROM ${projects} WHERE id = ${container.id} FOR NO KEY UPDATE`);
        else await tx.execute(sql`SELECT 1 FROM ${namespaces} WHERE id = ${container.id} FOR NO KEY UPDATE`);
        if (await titleTaken(tx as unknown as Db, container, title!)) throw milestoneCreateFailed({ title: [MILESTONE_TITLE_TAKEN] });
        const owner = container.kind === "project" ? eq(milestones.projectId, container.id) : eq(milestones.groupId, container.id);
        const [{ next }] = await tx.select({ next: sql<number>`coalesce(max(${milestones.iid}), 0)::int + 1` }).from(milestones).where(owner);
        const [row] = await tx
          .insert(milestones)
          .values({
            iid: next,
            projectId: container.kind === "project" ? container.id : null,
            groupId: container.kind === "group" ? container.id : null,
            title: title!,
            description: p.description ?? null,
            dueDate: dateOf(p.due_date) ?? null,
            startDate: dateOf(p.start_date) ?? null,
          })
          .returning();
        return row;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const where = `${pgErrorOf(err).constraint ?? ""} ${pgErrorOf(err).message ?? ""}`;
      if (where.includes("title")) throw milestoneInvalid({ title: [MILESTONE_TITLE_TAKEN] });
      if (attempt >= 3) throw err; // an iid collision despite the lock: retry a couple of times
    }
  }
}

export interface UpdateMilestoneInput {
  title?: string;
  description?: string | null;
  due_date?: string | null;
  start_date?: string | null;
  state_event?: "close" | "activate";
}

/** PUT .../milestones/:milestone_id. */
export async function updateMilestone(db: Db, container: MilestoneContainer, m: MilestoneRow, p: UpdateMilestoneInput): Promise<MilestoneRow> {
  const changes: Partial<typeof milestones.$inferInsert> = {};
  const title = titleOf(p.title);
  if (title !== null && title !== m.title) changes.title = title;
  if (p.description !== undefined) changes.description = p.description;
  if (p.due_date !== undefined) changes.dueDate = dateOf(p.due_date);
  if (p.start_date !== undefined) changes.startDate = dateOf(p.start_date);
  if (p.state_event === "close") changes.state = "closed";
  if (p.state_event === "activate") changes.state = "active";

  const errors: Errors = {};
  validateDates(changes.startDate !== undefined ? changes.startDate : m.startDate, changes.dueDate !== undefined ? changes.dueDate : m.dueDate, errors);
  if (Object.keys(errors).length) throw milestoneInvalid(errors);

  try {
    return await db.transaction(async (tx) => {
      if (changes.title !== undefined && (await titleTaken(tx as unknown as Db, container, changes.title, m.id))) throw milestoneInvalid({ title: [MILESTONE_TITLE_TAKEN] });
      const [row] = await tx
        .update(milestones)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(milestones.id, m.id))
        .returning();
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw milestoneInvalid({ title: [MILESTONE_TITLE_TAKEN] });
    throw err;
  }
}

export async function deleteMilestone(db: Db, m: MilestoneRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(milestones).where(eq(milestones.id, m.id));
  });
}
