export * from "./app";
export * from "./fixtures";
export * from "./http";
export * from "./eventually";
export * from "./mailbox";
export * from "./events";
export * from "./processes";
export * from "./git-client";
