import { call } from "@collab/core";
import type { Db } from "@collab/db";
import type { ServiceBroker } from "moleculer";
import { eventFlags, kindOf, type EventKind } from "@collab/integrations-contract";
import type { IntegrationRow } from "../db/schema";
import { effectiveSettings } from "../domain/settings";
import { Namespaces, type ProjectSummary } from "@collab/namespaces-contract";

/** What the delivery code asks of the bus (a broker or a context). */
export type Caller = { call: ServiceBroker["call"] };

/** The project facts a message needs (namespaces.projects.summaries). */
export type ProjectFacts = Pick<ProjectSummary, "id" | "name" | "namespace_name" | "visibility" | "path_with_namespace" | "web_url" | "group_ids" | "default_branch">;

export async function projectFacts(broker: Caller, projectId: number): Promise<ProjectFacts | null> {
  const [p] = await call(broker, Namespaces.projects.summaries, { ids: [projectId] });
  return p ?? null;
}

/** The integration of this slug acting for the project (its own or inherited), when active and enabled for the event kind (null: none gates it). */
export async function activeIntegrationFor(db: Db, project: ProjectFacts, slug: string, kind: EventKind | null): Promise<IntegrationRow | null> {
  const found = (await effectiveSettings(db, { kind: "project", id: project.id, ancestors: project.group_ids }, [slug])).get(slug);
  if (!found || !found.source.active || (kind !== null && !eventFlags(found.source.events)[kind])) return null;
  return found.source;
}

/**
 * branches_to_be_notified of chat notifiers and pipeline emails (GitLab's NotificationBranchSelection):
 * all, default, protected, default_and_protected.
 */
export async function branchSelected(broker: Caller, integration: IntegrationRow, project: ProjectFacts, branch: string): Promise<boolean> {
  const legacy = integration.properties.notify_only_default_branch;
  // Set-ups that only gave the older notify_only_default_branch keep its meaning (GitLab's initialize_properties).
  const selection = String(integration.properties.branches_to_be_notified ?? (typeof legacy === "boolean" ? (legacy ? "default" : "all") : (kindOf(integration.slug).fields.find((f) => f.name === "branches_to_be_notified")?.default ?? "default")));
  if (selection === "all") return true;
  const isDefault = branch === project.default_branch;
  if (selection === "default") return isDefault;
  const [matches] = await call(broker, Namespaces.protectedBranches.matching, { pairs: [{ project_id: project.id, branch }] });
  const isProtected = (matches ?? []).length > 0;
  return selection === "protected" ? isProtected : isDefault || isProtected;
}
