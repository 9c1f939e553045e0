import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { runnersService } from "./runners.service";

export const schemas: ServiceSchema[] = [runnersService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "runners", folder: path.join(__dirname, "../drizzle") } as const;
