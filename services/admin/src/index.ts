import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { adminService } from "./admin.service";

export { areaAvailable, type Area } from "./availability";
export const schemas: ServiceSchema[] = [adminService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "admin", folder: path.join(__dirname, "../drizzle") } as const;
