import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { snippetsService } from "./snippets.service";

export const schemas: ServiceSchema[] = [snippetsService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "snippets", folder: path.join(__dirname, "../drizzle") } as const;
