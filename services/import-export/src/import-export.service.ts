import { settingsMixin } from "@collab/core";
import { defineService } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { tick } from "./domain/worker";
import { importExportActions } from "./import-export.actions";

/** How often the worker looks for queued exports and imports (ms); IMPORT_EXPORT_TICK_MS=0 turns the timer off. */
const tickInterval = () => Number(process.env.IMPORT_EXPORT_TICK_MS ?? 2000);

let timer: NodeJS.Timeout | undefined;

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
  started(kit) {
    const every = tickInterval();
    if (!every) return;
    let running = false;
    timer = setInterval(() => {
      if (running) return;
      running = true;
      tick(kit.db, (name, params) => kit.broker.call(name, params))
        .catch((err: Error) => kit.logger.warn({ err: err.message }, "import/export worker step failed"))
        .finally(() => (running = false));
    }, every);
    timer.unref();
  },
  stopping() {
    if (timer) clearInterval(timer);
    timer = undefined;
  },
});
