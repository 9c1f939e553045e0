import { gString } from "@collab/core";
import { z } from "zod";

/** GET /analytics/group_activity/*: the group by its full path. */
export const GroupActivityParams = z.object({ group_path: gString() });
