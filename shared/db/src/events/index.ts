export * from "./envelope";
export * from "./tables";
export * from "./consumers";
export * from "./outbox";
export * from "./handle";
export * from "./dead-letters";
