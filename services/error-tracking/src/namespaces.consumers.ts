import { consumer, type Consumers, type Db } from "@collab/db";
import { z } from "zod";
import { removeProjectData } from "./domain/cleanup";

const ProjectDeleted = z.object({ projectId: z.number().int().positive() });

/** A deleted project's error tracking goes with it (durable event, applied once, in its transaction). */
export const namespacesConsumers = (): Consumers => ({
  "namespaces.project.deleted": consumer(ProjectDeleted, (p, tx: Db) => removeProjectData(p, tx)),
});
