import { charCount, conflict, isBlank, isUniqueViolation, rubyStrip, validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, ne } from "drizzle-orm";
import { labels, type LabelRow } from "../db/schema";
import { labelsByTitles, type LabelScope } from "./labels.finder";
import { sanitizeText } from "../shared/sanitize";
import { DEFAULT_LABEL_COLOR, isValidColor, normalizeColor } from "@collab/core";

/** Where a label is created or looked up, with the groups whose labels it also sees. */
export type LabelContainer =
  | { kind: "project"; id: number; ancestorGroupIds: number[]; parentGroup: { id: number; name: string } | null }
  | { kind: "group"; id: number; ancestorGroupIds: number[] };

/** The labels a container sees by default: its own and those of its ancestor groups. */
export const availableLabelScope = (c: LabelContainer): LabelScope =>
  c.kind === "project" ? { projectIds: [c.id], groupIds: c.ancestorGroupIds } : { projectIds: [], groupIds: [...new Set([...c.ancestorGroupIds, c.id])] };

/** Only the container's own labels (updates and deletes never reach an ancestor's). */
export const ownLabelScope = (c: LabelContainer): LabelScope => (c.kind === "project" ? { projectIds: [c.id], groupIds: [] } : { projectIds: [], groupIds: [c.id] });

/** `title=` / `description=` ignore blank values, as GitLab's Label model does. */
const present = (v: string | null | undefined): v is string => typeof v === "string" && !isBlank(v);

type Errors = Record<string, string[]>;
const add = (errors: Errors, key: string, ...messages: string[]) => (errors[key] = [...(errors[key] ?? []), ...messages]);

function validateTitle(title: string | null, errors: Errors) {
  if (title === null || isBlank(title)) add(errors, "title", "can't be blank", "is invalid");
  else {
    if (title.includes(",")) add(errors, "title", "is invalid");
    if (charCount(title) > 255) add(errors, "title", "is too long (maximum is 255 characters)");
  }
}

function validateColor(color: string, errors: Errors) {
  if (!isValidColor(color)) add(errors, "color", "must be a valid color code");
}

function validatePriority(priority: number | null | undefined, errors: Errors) {
  if (typeof priority === "number" && priority < 0) add(errors, "priority", "must be greater than or equal to 0");
}

/** Sanitized and stripped as the Label model does (Ruby's strip: a BOM or zero-width space stays). */
const titleOf = (raw: string | null | undefined) => (present(raw) ? rubyStrip(sanitizeText(raw)) : null);

export interface CreateLabelInput {
  name: string;
  color: string;
  description?: string | null;
  priority?: number | null;
}

/**
 * POST .../labels: 409 when the name is already visible to the container (its own labels and its
 * ancestor groups'), 400 with the model's errors otherwise.
 */
export async function createLabel(db: Db, container: LabelContainer, p: CreateLabelInput): Promise<LabelRow> {
  const title = titleOf(p.name);
  const color = normalizeColor(p.color);
  const errors: Errors = {};
  validateColor(color, errors);
  validateTitle(title, errors);
  if (container.kind === "project") validatePriority(p.priority, errors);
  if (title !== null && !errors.title && (await labelsByTitles(db, availableLabelScope(container), [title])).length > 0) throw conflict("Label already exists");
  if (Object.keys(errors).length) throw validationFailed(errors);

  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(labels)
        .values({
          projectId: container.kind === "project" ? container.id : null,
          groupId: container.kind === "group" ? container.id : null,
          title: title!,
          color,
          description: present(p.description) ? sanitizeText(p.description) : null,
          priority: container.kind === "project" ? (p.priority ?? null) : null,
        })
        .returning();
      return row;
    });
  } catch (err) {
    // Someone created the same title meanwhile: answer as the pre-check would have.
    if (isUniqueViolation(err)) throw conflict("Label already exists");
    throw err;
  }
}

export interface UpdateLabelInput {
  new_name?: string | null;
  color?: string | null;
  description?: string | null;
  /** undefined: unchanged; null: no priority; a number: that priority (project labels only). */
  priority?: number | null;
}

/** PUT .../labels/:label_id on one of the container's own labels. */
export async function updateLabel(db: Db, container: LabelContainer, label: LabelRow, p: UpdateLabelInput): Promise<LabelRow> {
  const errors: Errors = {};
  const changes: Partial<typeof labels.$inferInsert> = {};
  const title = titleOf(p.new_name);
  if (title !== null && title !== label.title) {
    validateTitle(title, errors);
    changes.title = title;
  }
  if (p.color !== undefined && p.color !== null) {
    const color = normalizeColor(p.color);
    validateColor(color, errors);
    changes.color = color;
  }
  if (present(p.description)) changes.description = sanitizeText(p.description);
  if (container.kind === "project" && p.priority !== undefined) {
    validatePriority(p.priority, errors);
    changes.priority = p.priority;
  }
  if (changes.title !== undefined && !errors.title) {
    const [taken] = await db
      .select({ id: labels.id })
      .from(labels)
      .where(and(label.projectId !== null ? eq(labels.projectId, label.projectId) : eq(labels.groupId, label.groupId!), eq(labels.title, changes.title), ne(labels.id, label.id)));
    if (taken) add(errors, "title", "has already been taken");
    else if (container.kind === "project" && container.parentGroup) {
      // ProjectLabel#title_must_not_exist_at_group_level, on the project's own group.
      const [atGroup] = await db.select({ id: labels.id }).from(labels).where(and(eq(labels.groupId, container.parentGroup.id), eq(labels.title, changes.title)));
      if (atGroup) add(errors, "title", `already exists at group level for ${escapeHtml(container.parentGroup.name)}. Please choose another one.`);
    }
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
  if (Object.keys(changes).length === 0) return label;

  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .update(labels)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(labels.id, label.id))
        .returning();
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw validationFailed({ title: ["has already been taken"] });
    throw err;
  }
}

export async function deleteLabel(db: Db, label: LabelRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(labels).where(eq(labels.id, label.id));
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * Labels by exact name as a project or group sees them (its own, then its groups' from the nearest
 * up), one per name, sorted by title. With `create`, names nobody has yet become labels of the
 * container in GitLab's default colour (invalid titles are skipped, as GitLab's FindOrCreateService fails them).
 */
export async function resolveContainerLabels(db: Db, container: LabelContainer, names: string[], create: boolean, known?: LabelRow[]): Promise<LabelRow[]> {
  const titles = labelTitles(names);
  if (titles.length === 0) return [];
  const scope = availableLabelScope(container);
  const found = pickNearest(scope, known ? known.filter((l) => titles.includes(l.title)) : await labelsByTitles(db, scope, titles));
  const missing = titles.filter((t) => !found.has(t) && !t.includes(",") && t.length <= 255);
  if (create && missing.length > 0) {
    await db.transaction(async (tx) => {
      // Concurrent resolvers may create the same names: the unique index keeps one, both read it back.
      await tx
        .insert(labels)
        .values(missing.map((title) => ({ ...ownerColumns(container), title, color: DEFAULT_LABEL_COLOR })))
        .onConflictDoNothing();
    });
    for (const [title, row] of pickNearest(scope, await labelsByTitles(db, ownLabelScope(container), missing))) found.set(title, row);
  }
  return [...found.values()].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id));
}

const ownerColumns = (c: LabelContainer) => (c.kind === "project" ? { projectId: c.id, groupId: null } : { projectId: null, groupId: c.id });

/** The label names of a work item edit: replace, add, remove (GitLab's labels / add_labels / remove_labels). */
export interface LabelChanges {
  labels?: string[];
  add_labels?: string[];
  remove_labels?: string[];
}

/** The distinct label titles names stand for (blank ones dropped). */
export const labelTitles = (names: string[]) => [...new Set(names.map((n) => titleOf(n)).filter((t): t is string => t !== null))];

/** Every name of a work item edit's label changes. */
export const labelChangeNames = (changes: LabelChanges) => [...(changes.labels ?? []), ...(changes.add_labels ?? []), ...(changes.remove_labels ?? [])];

/**
 * The labels each list of `changes` names, as resolveContainerLabels finds them: `labels` and
 * `add_labels` first (creating missing ones when `create`), then `remove_labels`, which may name
 * what they created. Names already resolved are not looked up again. `known`: the container's
 * available labels with all the changes' titles (labelChangeNames), already read.
 */
export async function resolveLabelChanges(db: Db, container: LabelContainer & { kind: "project" }, changes: LabelChanges, create: boolean, known?: LabelRow[]) {
  const found = new Map((await resolveContainerLabels(db, container, [...(changes.labels ?? []), ...(changes.add_labels ?? [])], create, known)).map((l) => [l.title, l]));
  const unresolved = (changes.remove_labels ?? []).filter((n) => { const t = titleOf(n); return t !== null && !found.has(t); });
  for (const l of await resolveContainerLabels(db, container, unresolved, false, known)) found.set(l.title, l);
  const pick = (names: string[]) => {
    const titles = new Set(names.map(titleOf));
    return [...found.values()].filter((l) => titles.has(l.title)).sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id));
  };
  return { labels: changes.labels === undefined ? null : pick(changes.labels), add_labels: pick(changes.add_labels ?? []), remove_labels: pick(changes.remove_labels ?? []) };
}

/** One label per title: the project's own, else the nearest group's. */
function pickNearest(scope: LabelScope, rows: LabelRow[]): Map<string, LabelRow> {
  const rank = (l: LabelRow) => (l.projectId !== null ? -1 : scope.groupIds.length - scope.groupIds.indexOf(l.groupId!));
  const out = new Map<string, LabelRow>();
  for (const row of [...rows].sort((a, b) => rank(a) - rank(b) || a.id - b.id)) if (!out.has(row.title)) out.set(row.title, row);
  return out;
}
