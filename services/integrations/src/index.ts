import path from "node:path";
import type { ServiceSchema } from "moleculer";
import { integrationsService } from "./integrations.service";
import { integrationSecrets } from "./domain/secrets";

export const schemas: ServiceSchema[] = [integrationsService];

/** This service's drizzle migrations, for the one-shot migration entry (services/gateway/src/migrate.ts). */
export const migrations = { service: "integrations", folder: path.join(__dirname, "../drizzle") } as const;

/** The credentials this service keeps sealed, for the one-shot re-encryption (services/gateway/src/reencrypt-secrets.ts). */
export const secrets = integrationSecrets;
