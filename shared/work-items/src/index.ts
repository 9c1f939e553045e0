/**
 * What the work-item services (issues, merge requests) share: their bus clients of accounts and
 * namespaces (through those services' contracts, one batched call per request or page) and the
 * finder and domain helpers both use. One implementation each.
 */
export * from "./access-levels";
export * from "./groups";
export * from "./labels";
export * from "./milestones";
export * from "./page-refs";
export * from "./projects";
export * from "./project-facts";
export * from "./users";
export * from "./work-item-input";
export type {
  AccessOnProject,
  GroupAccess,
  LabelBasic,
  LabelDetail,
  MilestoneDetail,
  ProjectAccess,
  ProjectSummary,
  ReadableProjectRef,
  WorkItemInputAnswer,
  WorkItemInputRequest,
} from "@collab/namespaces-contract";
export * from "./finder-sql";
export * from "./list-names";
export * from "./permissions";
export * from "./cleanup";
export * from "./tier-params";
export * from "./subscriptions";
export * from "./closing-pattern";
