import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { errorTrackingService } from "./error-tracking.service";

export const schemas: ServiceSchema[] = [errorTrackingService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "error-tracking", folder: path.join(__dirname, "../drizzle") } as const;
