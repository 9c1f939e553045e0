/** Durable events the import-export service publishes (see index.ts). */
export const ImportExportEvents = {};
