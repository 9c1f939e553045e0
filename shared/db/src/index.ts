export * from "./database";
export * from "./prepared";
export * from "./service";
export * from "./testing";
export * from "./events";
export * from "./workers";
export * from "./internal-ids";
export * from "./columns";
