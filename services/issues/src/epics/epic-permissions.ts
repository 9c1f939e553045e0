import { AccessLevel, type Caller } from "@collab/core";
import type { EpicRow } from "../db/schema";

/** The caller's standing on a group's epics, as GitLab's GroupPolicy and EpicPolicy see it. */
export interface EpicActor {
  caller: Caller | null;
  /** Effective role on the group (60 for administrators, 0 for non-members). */
  role: number;
}

/** Confidential epics: Planners and Reporters up (read_confidential_epic). */
export const canReadConfidentialEpics = (a: EpicActor) => a.role >= AccessLevel.PLANNER;

/** Any epic of a group the caller may read, confidential ones aside. */
export const canReadEpic = (a: EpicActor, epic: Pick<EpicRow, "confidential">) => !epic.confidential || canReadConfidentialEpics(a);

/** Creating and editing epics (admin_epic): Planners and Reporters up. */
export const canAdminEpic = (a: EpicActor) => a.caller !== null && a.role >= AccessLevel.PLANNER;

/** Deleting an epic (destroy_epic): Owners (administrators too). */
export const canDestroyEpic = (a: EpicActor) => a.caller !== null && a.role >= AccessLevel.OWNER;
