/**
 * The shared notes' contract: the notes, discussions and resource state events actions every
 * noteable-owning service mounts (noteContract), their params and answers, and their routes
 * (noteRoutes). Imports nothing from @collab/notes' implementation (see @collab/core contract.ts).
 */
export * from "./params";
export * from "./entities";
export * from "./actions";
export * from "./routes";
export * from "./award-emoji";
export * from "./time-tracking";
