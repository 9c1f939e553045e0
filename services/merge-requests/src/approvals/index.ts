import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { approvalsActions } from "./approvals.actions";
import { approvalRulesActions } from "./rules.actions";

export { approvalsLeftFor } from "./gate";
export { resetApprovalsOnPush } from "./on-push";
export { approvalSystemNote } from "./approval-events";

export const approvalActions = (kit: ServiceKit): Record<string, ActionSchema> => ({ ...approvalsActions(kit), ...approvalRulesActions(kit) });
