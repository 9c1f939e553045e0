import type { RouteDef } from "@collab/core";

const S = "import-export";

/** Group export and import, as GitLab's GroupExport and GroupImport APIs mount them; vulnerability exports (Ultimate). */
export const routes: RouteDef[] = [
  { method: "POST", path: "/groups/:id/export", action: `${S}.groups.export` },
  { method: "GET", path: "/groups/:id/export/download", action: `${S}.groups.download` },
  { method: "POST", path: "/groups/import", action: `${S}.groups.import`, files: ["file"] },

  { method: "POST", path: "/security/projects/:id/vulnerability_exports", action: `${S}.vulnerabilityExports.createForProject` },
  { method: "POST", path: "/security/groups/:id/vulnerability_exports", action: `${S}.vulnerabilityExports.createForGroup` },
  { method: "POST", path: "/security/vulnerability_exports", action: `${S}.vulnerabilityExports.createForInstance` },
  { method: "GET", path: "/security/vulnerability_exports/:id", action: `${S}.vulnerabilityExports.get` },
  { method: "GET", path: "/security/vulnerability_exports/:id/download", action: `${S}.vulnerabilityExports.download` },
];
