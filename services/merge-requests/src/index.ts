import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { mergeRequestsService } from "./merge-requests.service";

export const schemas: ServiceSchema[] = [mergeRequestsService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "merge-requests", folder: path.join(__dirname, "../drizzle") } as const;
