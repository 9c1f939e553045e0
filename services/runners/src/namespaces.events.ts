import { consumer, type Consumers, type Db } from "@collab/db";
import { z } from "zod";
import { removeGroupData, removeProjectData } from "./domain/cleanup";

/** Deletions in the namespaces service this service follows (durable events, applied once each). */
const ProjectDeleted = z.object({ projectId: z.number().int().positive() });
const GroupDeleted = z.object({ groupIds: z.array(z.number().int().positive()).max(100_000) });

export const namespacesConsumers = (): Consumers => ({
  "namespaces.project.deleted": consumer(ProjectDeleted, (p, tx: Db) => removeProjectData(tx, p.projectId)),
  "namespaces.group.deleted": consumer(GroupDeleted, (p, tx: Db) => removeGroupData(tx, p.groupIds)),
});
