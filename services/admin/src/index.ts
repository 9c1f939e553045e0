import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { adminService } from "./admin.service";
import { adminSecrets } from "./domain/secrets";

export { areaAvailable, type Area } from "./availability";
export const schemas: ServiceSchema[] = [adminService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "admin", folder: path.join(__dirname, "../drizzle") } as const;

/** The credentials this service keeps sealed, for the one-shot re-encryption (services/gateway/src/reencrypt-secrets.ts). */
export const secrets = adminSecrets;
