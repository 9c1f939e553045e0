import { gBool, gEnum, gInt, gString, paginationParams } from "@collab/core";
import { z } from "zod";

/** Label routes exist for projects and groups; the route fixes which (like members). */
export const LABEL_SOURCES = ["projects", "groups"] as const;
export type LabelSource = (typeof LABEL_SOURCES)[number];

const source = { source: gEnum(LABEL_SOURCES), id: gString().refine((s) => s.length > 0, { error: "is invalid" }) };

/** `type: String` params that JSON may send as null (Grape passes nil through). */
const optionalText = () => gString().nullable().optional();

/** `priority`: an Integer with allow_blank, so "" and null both mean "no priority". */
const priority = () => z.preprocess((v) => (v === "" ? null : v), gInt().nullable().optional());

/** GET .../labels: project lists default to project + ancestor-group labels; group lists add switches. */
export const ListLabelsParams = z.object({
  ...source,
  ...paginationParams,
  with_counts: gBool().default(false),
  include_ancestor_groups: gBool().default(true),
  include_descendant_groups: gBool().default(false),
  only_group_labels: gBool().default(true),
  search: gString().optional(),
});
export type ListLabelsParams = z.output<typeof ListLabelsParams>;

export const GetLabelParams = z.object({
  ...source,
  label_id: gString(),
  include_ancestor_groups: gBool().default(true),
  include_descendant_groups: gBool().default(false),
  only_group_labels: gBool().default(true),
});
export type GetLabelParams = z.output<typeof GetLabelParams>;

export const CreateLabelParams = z.object({
  ...source,
  name: gString(),
  color: gString(),
  description: optionalText(),
  priority: priority(),
});
export type CreateLabelParams = z.output<typeof CreateLabelParams>;

/**
 * PUT .../labels/:label_id (form "path") or the older PUT .../labels with `label_id` (an Integer)
 * or `name` in the body (form "body"). At least one change must be given; `priority` only on projects.
 */
export const UpdateLabelParams = z
  .object({
    ...source,
    form: gEnum(["path", "body"] as const),
    label_id: gString().optional(),
    name: gString().optional(),
    new_name: optionalText(),
    color: optionalText(),
    description: optionalText(),
    priority: priority(),
  })
  .superRefine((v, c) => {
    if (v.form === "body") exactlyOneRef(v, c);
    const changes = v.source === "projects" ? ["new_name", "color", "description", "priority"] : ["new_name", "color", "description"];
    if (!changes.some((k) => v[k as keyof typeof v] !== undefined))
      c.addIssue({ code: "custom", path: [], message: `${changes.join(", ")} are missing, at least one parameter must be provided` });
  });
export type UpdateLabelParams = z.output<typeof UpdateLabelParams>;

/** DELETE .../labels/:label_id, or the older DELETE .../labels?label_id= | ?name=. */
export const DeleteLabelParams = z
  .object({ ...source, form: gEnum(["path", "body"] as const), label_id: gString().optional(), name: gString().optional() })
  .superRefine((v, c) => {
    if (v.form === "body") exactlyOneRef(v, c);
  });
export type DeleteLabelParams = z.output<typeof DeleteLabelParams>;

/** Grape's `exactly_one_of :label_id, :name`, with label_id an Integer in the body form. */
function exactlyOneRef(v: { label_id?: string; name?: string }, c: z.core.$RefinementCtx) {
  if (v.label_id === undefined && v.name === undefined)
    c.addIssue({ code: "custom", path: [], message: "label_id, name are missing, exactly one parameter must be provided" });
  else if (v.label_id !== undefined && v.name !== undefined) c.addIssue({ code: "custom", path: [], message: "label_id, name are mutually exclusive" });
  else if (v.label_id !== undefined && !/^\d+$/.test(v.label_id.trim())) c.addIssue({ code: "custom", path: ["label_id"], message: "is invalid" });
}

/** The label reference of an update or delete, whichever form was used. */
export const labelRefOf = (p: { label_id?: string; name?: string }) => (p.label_id ?? p.name)!;
