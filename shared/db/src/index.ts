export * from "./database";
export * from "./service";
export * from "./testing";
