/**
 * The import-export service's contract: the actions other services may call and the durable events it
 * publishes, with their schemas. It imports nothing from the service's implementation, so
 * depending on it never pulls the service in (see @collab/core contract.ts).
 */
import { serviceContract } from "@collab/core";
import { ImportExportActions } from "./actions";
import { ImportExportEvents } from "./events";

export const ImportExport = { ...serviceContract("import-export"), ...ImportExportActions, events: ImportExportEvents };
export * from "./actions";
export * from "./events";
export * from "./params/groups";
export * from "./params/vulnerability-exports";
export { routes } from "./routes";
