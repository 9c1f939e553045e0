import type { RouteDef } from "@collab/core";
import { ImportExportActions } from "./actions";

/** Group export and import, as GitLab's GroupExport and GroupImport APIs mount them; vulnerability exports (Ultimate). */
export const routes: RouteDef[] = [
  { method: "POST", path: "/groups/:id/export", action: ImportExportActions.groups.export.name },
  { method: "GET", path: "/groups/:id/export/download", action: ImportExportActions.groups.download.name },
  { method: "POST", path: "/groups/import", action: ImportExportActions.groups.import.name, files: ["file"] },

  { method: "POST", path: "/security/projects/:id/vulnerability_exports", action: ImportExportActions.vulnerabilityExports.createForProject.name },
  { method: "POST", path: "/security/groups/:id/vulnerability_exports", action: ImportExportActions.vulnerabilityExports.createForGroup.name },
  { method: "POST", path: "/security/vulnerability_exports", action: ImportExportActions.vulnerabilityExports.createForInstance.name },
  { method: "GET", path: "/security/vulnerability_exports/:id", action: ImportExportActions.vulnerabilityExports.get.name },
  { method: "GET", path: "/security/vulnerability_exports/:id/download", action: ImportExportActions.vulnerabilityExports.download.name },
];
