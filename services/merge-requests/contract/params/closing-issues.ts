import { gInt, gString, paginationParams } from "@collab/core";
import { z } from "zod";

/** GET /projects/:id/merge_requests/:merge_request_iid/closes_issues (and …/related_issues). */
export const ClosesIssuesParams = z.object({ id: gString(), merge_request_iid: gInt(), ...paginationParams });
/** GET /projects/:id/issues/:issue_iid/closed_by (and …/related_merge_requests). */
export const ClosedByParams = z.object({ id: gString(), issue_iid: gInt(), ...paginationParams });
