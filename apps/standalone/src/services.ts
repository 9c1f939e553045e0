import * as accounts from "@collab/accounts";
import * as admin from "@collab/admin";
import * as issues from "@collab/issues";
import * as namespaces from "@collab/namespaces";
import * as runners from "@collab/runners";
import * as integrations from "@collab/integrations";
import * as activity from "@collab/activity";
import * as importExport from "@collab/import-export";
import * as mergeRequests from "@collab/merge-requests";
import * as errorTracking from "@collab/error-tracking";
import * as packages from "@collab/packages";
import * as snippets from "@collab/snippets";
import * as repositories from "@collab/repositories";
import type { SecretStore } from "@collab/db";
import type { ServiceSchema } from "moleculer";

/**
 * Every domain service package, in start and migration order: what `npm start` runs in one
 * process, what the test app boots, what the migration entry migrates, and the credentials the
 * re-encryption reseals. Adding a service is one line here plus its routes in routes.ts.
 */
export const DOMAIN_SERVICES: readonly { schemas: ServiceSchema[]; migrations: { service: string; folder: string }; secrets?: SecretStore }[] = [accounts, namespaces, issues, mergeRequests, admin, runners, importExport, errorTracking, integrations, activity, packages, snippets, repositories];

export const domainSchemas = (): ServiceSchema[] => DOMAIN_SERVICES.flatMap((s) => s.schemas);

/** The services that keep credentials sealed (their `secrets` export), for the re-encryption. */
export const SECRET_STORES: readonly SecretStore[] = DOMAIN_SERVICES.flatMap((s) => (s.secrets ? [s.secrets] : []));
