import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { namespacesService } from "./namespaces.service";

export const schemas: ServiceSchema[] = [namespacesService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "namespaces", folder: path.join(__dirname, "../drizzle") } as const;
