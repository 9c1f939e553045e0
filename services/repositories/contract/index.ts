/**
 * The repositories service's contract: the actions other services may call, the durable events
 * it publishes, and the client side of its routing (a call about a repository goes to the replica
 * serving the repository's storage: `onStorage`). It imports nothing from the implementation.
 */
import { serviceContract } from "@collab/core";
import { RepositoriesActions } from "./actions";
import { RepositoriesEvents } from "./events";

export const Repositories = { ...serviceContract("repositories"), ...RepositoriesActions, events: RepositoriesEvents };
export * from "./actions";
export * from "./events";
export * from "./refs";
export * from "./routing";
export { routes } from "./routes";
