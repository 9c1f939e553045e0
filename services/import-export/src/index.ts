import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { importExportService } from "./import-export.service";

export const schemas: ServiceSchema[] = [importExportService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "import-export", folder: path.join(__dirname, "../drizzle") } as const;
