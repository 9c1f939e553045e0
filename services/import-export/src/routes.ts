import type { RouteDef } from "@collab/core";

const S = "import-export";

/** Group export and import, as GitLab's GroupExport and GroupImport APIs mount them. */
export const routes: RouteDef[] = [
  { method: "POST", path: "/groups/:id/export", action: `${S}.groups.export` },
  { method: "GET", path: "/groups/:id/export/download", action: `${S}.groups.download` },
  { method: "POST", path: "/groups/import", action: `${S}.groups.import`, files: ["file"] },
];
