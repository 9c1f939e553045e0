/** Actions of the import-export service other services call (see index.ts). */
export const ImportExportActions = {};
