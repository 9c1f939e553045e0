import { gString, paginationParams } from "@collab/core";
import { z } from "zod";
import { projectRef } from "./projects";

const name = () => gString().refine((s) => s.length > 0, { error: "is empty" });
const kind = () => z.enum(["branch", "tag"]);

export const ListRefsParams = z.object({ id: projectRef(), kind: kind(), search: gString().optional(), ...paginationParams });
/** One branch (`:branch`) or tag (`:tag_name`) named in the path. */
export const RefParams = z
  .object({ id: projectRef(), kind: kind(), branch: name().optional(), tag_name: name().optional() })
  .transform((p) => ({ id: p.id, kind: p.kind, name: (p.kind === "branch" ? p.branch : p.tag_name) ?? "" }));
export const CreateBranchParams = z.object({ id: projectRef(), branch: name(), ref: name() });
export const CreateTagParams = z.object({ id: projectRef(), tag_name: name(), ref: name(), message: gString().optional() });
