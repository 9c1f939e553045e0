import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { repositoriesService } from "./repositories.service";

export const schemas: ServiceSchema[] = [repositoriesService()];

/** This service's drizzle migrations, for the one-shot migration entry (apps/standalone/src/migrate.ts). */
export const migrations = { service: "repositories", folder: path.join(__dirname, "../drizzle") } as const;
