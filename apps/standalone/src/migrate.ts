import { loadConfig, type Config } from "@collab/core";
import { openDatabase } from "@collab/db";
import { DOMAIN_SERVICES } from "./services";

/**
 * One-shot migration entry (`node apps/standalone/dist/migrate.js`): applies every service's
 * drizzle migrations against DATABASE_URL, then exits 0, or 1 on failure. Run by the `migrate`
 * service of docker-compose.yml and the Job in deploy/k8s/migrate-job.yaml before the services
 * start. Services still apply their own migrations when they start (shared/db/src/service.ts);
 * both use the same advisory lock and migrations table per service, so either order is safe.
 */

export interface ServiceMigrations {
  service: string;
  folder: string;
}

/** Every service that owns tables, in the order their migrations are applied. */
export const SERVICE_MIGRATIONS: readonly ServiceMigrations[] = DOMAIN_SERVICES.map((s) => s.migrations);

/** Same table name as defineService() uses: drizzle.__migrations_<service>. */
export const migrationsTable = (service: string) => `__migrations_${service}`;

type Log = (msg: string, fields?: Record<string, unknown>) => void;

/** JSON lines on stdout, like the services' pino logs. */
const jsonLog: Log = (msg, fields = {}) => console.log(JSON.stringify({ level: "info", time: Date.now(), msg, ...fields }));

export async function migrateAll(url: string, list: readonly ServiceMigrations[] = SERVICE_MIGRATIONS, log: Log = jsonLog): Promise<void> {
  const database = await openDatabase(url);
  try {
    for (const { service, folder } of list) {
      const started = Date.now();
      await database.migrate({ folder, table: migrationsTable(service) });
      log("migrated", { service, table: `drizzle.${migrationsTable(service)}`, duration_ms: Date.now() - started });
    }
  } finally {
    await database.release();
  }
}

async function main(config: Config = loadConfig()) {
  // Without DATABASE_URL there is no server to prepare: npm start migrates its embedded one itself.
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is required: the migration entry prepares a PostgreSQL database");
  await migrateAll(config.DATABASE_URL);
  jsonLog("migrations applied", { services: SERVICE_MIGRATIONS.map((m) => m.service) });
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(JSON.stringify({ level: "error", time: Date.now(), msg: "migrations failed", err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }));
      process.exit(1);
    },
  );
}
