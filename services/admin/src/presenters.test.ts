import { ApplicationSettingsSchema, ExperimentSchema, GateSchema } from "@collab/admin-contract";
import type { Keyring } from "@collab/core";
import { z } from "zod";
import { defaultValues, type Tier } from "./api/settings.fields";
import { presentSettings } from "./domain/settings";
import { currentStatus, EXPERIMENTS } from "./experiments/registry";

/**
 * Answers the e2e tests do not reach, checked against the contract: the settings on every tier
 * (the e2e app runs one), and the experiments (a 403 on this self-managed offering).
 */
const noSecrets = {} as Keyring; // the defaults hold no secret to open

test.each(["free", "premium", "ultimate"] as Tier[])("the default settings on the %s tier answer within the contract", (tier) => {
  const now = new Date();
  const answer = presentSettings({ values: defaultValues(), createdAt: now, updatedAt: now, version: 0 }, tier, noSecrets);
  expect(ApplicationSettingsSchema.strict().safeParse(answer).error?.issues).toBeUndefined();
  const premiumOnly = ["allow_all_integrations", "security_approval_policies_limit"];
  expect(premiumOnly.map((name) => name in answer)).toEqual(tier === "free" ? [false, false] : [true, tier === "ultimate"]);
});

test("every experiment answers within the contract, with or without stored gates", () => {
  const gates: z.output<typeof GateSchema>[] = [{ key: "actors", value: [1, 2] }];
  for (const stored of [undefined, gates]) {
    const answer = EXPERIMENTS.map((def) => ({ key: def.name, definition: def, current_status: currentStatus(def, stored) }));
    expect(z.array(ExperimentSchema).safeParse(answer).error?.issues).toBeUndefined();
  }
});
