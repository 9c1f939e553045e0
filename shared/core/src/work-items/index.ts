export * from "./references";
export * from "./task-list";
export * from "./time-stats";
