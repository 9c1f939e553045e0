import { consumer, type Consumers, type Db } from "@collab/db";
import { z } from "zod";
import { notifierConsumers } from "./deliveries/notifier.consumers";
import { removeGroupData, removeProjectData } from "./domain/cleanup";

const ProjectDeleted = z.object({ projectId: z.number().int().positive() });
const GroupDeleted = z.object({ groupIds: z.array(z.number().int().positive()).max(100_000) });

/**
 * The durable domain events this service follows: deletions in namespaces (integrations and
 * deliveries go), and the activity the notifiers report (Discord; pipeline emails on
 * runners.pipeline.finished), recorded as deliveries for the worker.
 */
export const serviceConsumers = (): Consumers => ({
  ...notifierConsumers(),
  "namespaces.project.deleted": consumer(ProjectDeleted, (p, tx: Db) => removeProjectData(tx, p.projectId)),
  "namespaces.group.deleted": consumer(GroupDeleted, (p, tx: Db) => removeGroupData(tx, p.groupIds)),
});
