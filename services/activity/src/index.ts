import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { activityService } from "./activity.service";

export const schemas: ServiceSchema[] = [activityService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "activity", folder: path.join(__dirname, "../drizzle") } as const;
