import { createMailer, settingsMixin, type Mailer } from "@collab/core";
import { consumersOf, defineService, on } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { sql } from "drizzle-orm";
import { groupExports, groupImports, outbox, processedEvents, vulnerabilityExports } from "./db/schema";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { tick } from "./domain/worker";
import { importExportActions } from "./import-export.actions";
import { deleteGroupExports } from "./vulnerability-exports/jobs";
import { vulnerabilityExportsActions } from "./vulnerability-exports/vulnerability-exports.actions";
import { tickVulnerabilityExports, type WorkerDeps } from "./vulnerability-exports/worker";
import type { ServiceKit } from "@collab/db";

/** How often the worker looks for queued exports and imports (ms); IMPORT_EXPORT_TICK_MS=0 turns the timer off. */
const tickInterval = () => Number(process.env.IMPORT_EXPORT_TICK_MS ?? 2000);

/** The one mailer of this process (vulnerability export mails), made on first use. */
let mailer: Mailer | undefined;
const workerDeps = (kit: ServiceKit): WorkerDeps => ({
  db: kit.db,
  call: (name, params) => kit.broker.call(name, params),
  mailer: () => (mailer ??= createMailer(kit.config, kit.logger)),
  baseUrl: kit.baseUrl,
  warn: (obj, msg) => kit.logger.warn(obj, msg),
});

/**
 * Group export and import (GitLab's group import/export API) and vulnerability exports (CSV of the
 * vulnerabilities runners keeps): archives, uploads and files in its own tables, processed
 * asynchronously by workers in every replica (rows claimed with FOR UPDATE SKIP LOCKED). Group
 * data is read and written only through namespaces' actions, vulnerabilities through runners'.
 * The Moleculer name is the package folder's, as the migrations table and the topology expect.
 */
export const importExportService: ServiceSchema = defineService({
  name: "import-export",
  migrations: path.join(__dirname, "../drizzle"),
  mixins: [settingsMixin],
  actions: (kit) => [importExportActions(kit), vulnerabilityExportsActions(kit, () => workerDeps(kit))],
  eventTables: { outbox, processedEvents },
  consumes: () =>
    consumersOf("import-export", [
      // A deleted group (and its subgroups) takes its export archives and import uploads with it.
      on(Namespaces.events.groupDeleted, async ({ groupIds }, tx) => {
        const ids = sql.param(groupIds);
        await tx.delete(groupExports).where(sql`${groupExports.groupId} = ANY(${ids}::int[])`);
        await tx.delete(groupImports).where(sql`${groupImports.groupId} = ANY(${ids}::int[])`);
        await deleteGroupExports(tx, groupIds);
      }),
      // …and a deleted project its vulnerability exports (wider exports simply find its vulnerabilities gone).
      on(Namespaces.events.projectDeleted, async ({ projectId }, tx) => {
        await tx.delete(vulnerabilityExports).where(sql`${vulnerabilityExports.projectId} = ${projectId}`);
      }),
    ]),
  workers: (kit) => [
    { name: "import/export worker step", everyMs: tickInterval(), run: () => tick(kit.db, (name, params) => kit.broker.call(name, params)) },
    { name: "vulnerability export worker step", everyMs: tickInterval(), run: () => tickVulnerabilityExports(workerDeps(kit)) },
  ],
  stopping: () => {
    mailer?.close();
    mailer = undefined;
  },
});
