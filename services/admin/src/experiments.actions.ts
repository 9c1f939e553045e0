import type { ActionSchema } from "moleculer";
import { actionsOf, implement, notFound, requireAdmin } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Admin } from "@collab/admin-contract";
import { requireArea } from "./availability";
import { experimentGates } from "./db/schema";
import { currentStatus, EXPERIMENTS, type Gate } from "./experiments/registry";

export const experimentsActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("admin", [
    /** GET /experiments: every known experiment with its definition and gate state (hosted; staff = administrators). */
    implement(
      Admin.experiments.list,
      async (ctx) => {
        requireAdmin(ctx);
        requireArea("experiments", kit.config);
        const stored = new Map((await kit.db.select().from(experimentGates)).map((r) => [r.key, r.gates as Gate[]]));
        return EXPERIMENTS.map((def) => ({ key: def.name, definition: def, current_status: currentStatus(def, stored.get(def.name)) }));
      },
      { visibility: "published" },
    ),

    /** Bus only (operators, tests): replaces an experiment's gates. */
    implement(Admin.experiments.setGates, async (ctx) => {
      if (!EXPERIMENTS.some((e) => e.name === ctx.params.key)) throw notFound("Experiment");
      await kit.db
        .insert(experimentGates)
        .values({ key: ctx.params.key, gates: ctx.params.gates as Gate[] })
        .onConflictDoUpdate({ target: experimentGates.key, set: { gates: ctx.params.gates as Gate[], updatedAt: new Date() } });
      return { ok: true as const };
    }),
  ]);
