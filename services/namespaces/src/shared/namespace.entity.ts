import type { NamespaceRow, ProjectRow } from "../db/schema";

export const namespaceWebUrl = (ns: NamespaceRow, baseUrl: string) =>
  ns.kind === "user" ? `${baseUrl}/${ns.fullPath}` : `${baseUrl}/groups/${ns.fullPath}`;

/** The namespace object embedded in projects. */
export const presentNamespaceRef = (ns: NamespaceRow, baseUrl: string) => ({
  id: ns.id,
  name: ns.name,
  path: ns.path,
  kind: ns.kind,
  full_path: ns.fullPath,
  parent_id: ns.parentId,
  avatar_url: null,
  web_url: namespaceWebUrl(ns, baseUrl),
});

export type ProjectWithNamespace = { project: ProjectRow; namespace: NamespaceRow };
