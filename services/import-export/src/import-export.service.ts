import { settingsMixin } from "@collab/core";
import { consumer, defineService } from "@collab/db";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { groupExports, groupImports, outbox, processedEvents } from "./db/schema";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { tick } from "./domain/worker";
import { importExportActions } from "./import-export.actions";

/** How often the worker looks for queued exports and imports (ms); IMPORT_EXPORT_TICK_MS=0 turns the timer off. */
const tickInterval = () => Number(process.env.IMPORT_EXPORT_TICK_MS ?? 2000);

const GroupDeleted = z.object({ groupIds: z.array(z.number().int().positive()).max(100_000) });

/**
 * Group export and import (GitLab's group import/export API): export archives and uploaded
 * imports in its own tables, processed asynchronously by a worker in every replica (rows claimed
 * with FOR UPDATE SKIP LOCKED). Group data is read and written only through namespaces' actions.
 * The Moleculer name is the package folder's, as the migrations table and the topology expect.
 */
export const importExportService: ServiceSchema = defineService({
  name: "import-export",
  migrations: path.join(__dirname, "../drizzle"),
  mixins: [settingsMixin],
  actions: (kit) => importExportActions(kit),
  eventTables: { outbox, processedEvents },
  consumes: () => ({
    // A deleted group (and its subgroups) takes its export archives and import uploads with it.
    "namespaces.group.deleted": consumer(GroupDeleted, async ({ groupIds }, tx) => {
      const ids = sql.param(groupIds);
      await tx.delete(groupExports).where(sql`${groupExports.groupId} = ANY(${ids}::int[])`);
      await tx.delete(groupImports).where(sql`${groupImports.groupId} = ANY(${ids}::int[])`);
    }),
  }),
  workers: (kit) => [{ name: "import/export worker step", everyMs: tickInterval(), run: () => tick(kit.db, (name, params) => kit.broker.call(name, params)) }],
});
