export * from "./references";
export * from "./task-list";
export * from "./time-stats";
export * from "./filter-params";
export * from "./mentions";
export * from "./hook-attrs";
