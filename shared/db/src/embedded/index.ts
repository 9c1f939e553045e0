export { startEmbeddedPostgres, freePort, type EmbeddedPostgres, type EmbeddedPostgresOptions } from "./server";
export { importPgliteFolder, type PgliteImportResult } from "./pglite-import";
export { locateBinaries, platformPackage, type PostgresBinaries } from "./binaries";
