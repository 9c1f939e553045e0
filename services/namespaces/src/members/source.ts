import { AccessLevel, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { projectWebUrl } from "../projects/project.entity";
import { namespaceWebUrl } from "../shared/namespace.entity";
import { readableGroup, readableProject } from "./authorize";
import type { MemberSource } from "./members.finder";
import type { SourceKind } from "@collab/namespaces-contract";

/** The group or project a members or invitations route addresses, with the caller's role on it. */
export interface ResolvedSource {
  source: MemberSource;
  role: number;
  /** A group without a parent (Minimal Access exists only there). */
  topLevelGroup: boolean;
  /** What mails and messages call it: "group" or "project", its full name and web page. */
  label: { kind: "group" | "project"; name: string; fullName: string; webUrl: string };
}

export async function memberSource(kit: ServiceKit, ctx: Ctx<unknown>, kind: SourceKind, ref: string): Promise<ResolvedSource> {
  if (kind === "projects") {
    const p = await readableProject(kit.db, ctx, ref);
    const inherited = p.namespace.kind === "group" ? p.namespace.traversalIds : [];
    return {
      source: { type: "Project", id: p.project.id, inheritedGroupIds: inherited },
      role: p.role,
      topLevelGroup: false,
      label: { kind: "project", name: p.project.name, fullName: `${p.namespace.fullName} / ${p.project.name}`, webUrl: projectWebUrl(p.project, p.namespace, kit.baseUrl) },
    };
  }
  const g = await readableGroup(kit.db, ctx, ref);
  return {
    source: { type: "Namespace", id: g.group.id, inheritedGroupIds: g.group.traversalIds.filter((id) => id !== g.group.id) },
    role: g.role,
    topLevelGroup: g.group.parentId === null,
    label: { kind: "group", name: g.group.name, fullName: g.group.fullName, webUrl: namespaceWebUrl(g.group, kit.baseUrl) },
  };
}

/** Who may add, change or remove members and invitations: project Maintainers, group Owners. */
export const manageMembersRole = (kind: SourceKind) => (kind === "projects" ? AccessLevel.MAINTAINER : AccessLevel.OWNER);
