import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { accountsService } from "./accounts.service";

export const schemas: ServiceSchema[] = [accountsService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "accounts", folder: path.join(__dirname, "../drizzle") } as const;
