import { gBool, gString } from "@collab/core";
import { GroupRefParams } from "./groups";
import { ProjectRefParams } from "./projects";

/** DELETE /groups/:id: `permanently_remove` with the confirming `full_path` deletes a marked group at once. */
export const DeleteGroupParams = GroupRefParams.extend({ permanently_remove: gBool().optional(), full_path: gString().optional() });

/** DELETE /projects/:id: `permanently_remove` with the confirming `full_path` deletes a marked project at once. */
export const DeleteProjectParams = ProjectRefParams.extend({ permanently_remove: gBool().optional(), full_path: gString().optional() });

