import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { issuesService } from "./issues.service";

export const schemas: ServiceSchema[] = [issuesService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "issues", folder: path.join(__dirname, "../drizzle") } as const;
