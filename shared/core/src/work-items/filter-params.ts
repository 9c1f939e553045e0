import { z } from "zod";
import { gInt, toList } from "../params";

/**
 * Params shared by the work-item lists (issues, merge requests): GitLab's None / Any sentinels
 * beside a regular value, matched case-insensitively and normalised to "None" / "Any".
 */
export const normaliseSentinel = (v: unknown) =>
  typeof v === "string" && /^(none|any)$/i.test(v) ? (v.toLowerCase() === "none" ? "None" : "Any") : v;

/** An integer filter that also takes None / Any (assignee_id, reviewer_id, author_id…). */
export const intOrSentinel = () => z.preprocess(normaliseSentinel, z.union([z.literal("None"), z.literal("Any"), gInt()], { error: "is invalid" }));

/** A string filter that also takes None / Any (milestone, my_reaction_emoji). */
export const stringOrSentinel = () => z.preprocess(normaliseSentinel, z.string({ error: "is invalid" }));

/** `labels`: a comma list or array of titles, or one None / Any sentinel. */
export const labelsFilter = () =>
  z.preprocess((v) => {
    const list = toList(v);
    return Array.isArray(list) && list.length === 1 && typeof list[0] === "string" && /^(none|any)$/i.test(list[0]) ? normaliseSentinel(list[0]) : list;
  }, z.union([z.literal("None"), z.literal("Any"), z.array(z.string())], { error: "is invalid" }));

/** Grape's `mutually_exclusive` for two params of an object schema (a superRefine step). */
export const exclusivePair = (a: string, b: string) => (v: Record<string, unknown>, c: z.core.$RefinementCtx<Record<string, unknown>>) => {
  if (v[a] !== undefined && v[b] !== undefined) c.addIssue({ code: "custom", path: [], message: `${a}, ${b} are mutually exclusive` });
};
