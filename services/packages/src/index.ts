import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { packagesService } from "./packages.service";

export const schemas: ServiceSchema[] = [packagesService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "packages", folder: path.join(__dirname, "../drizzle") } as const;
