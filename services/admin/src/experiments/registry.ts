import type { ExperimentDefinition, ExperimentStatus, Gate } from "@collab/admin-contract";

/**
 * The experiment definitions this instance knows (GitLab keeps them as YAML files in
 * config/feature_flags/experiment; here a module). Gate state lives in admin.experiment_gates.
 */
export type { ExperimentDefinition, Gate };

export const EXPERIMENTS: readonly ExperimentDefinition[] = [
  {
    name: "issue_list_compact_rows",
    introduced_by_url: "https://collab.example/collab/collab/-/merge_requests/101",
    rollout_issue_url: "https://collab.example/collab/collab/-/issues/201",
    milestone: "18.4",
    type: "experiment",
    group: "group::project management",
    default_enabled: false,
  },
  {
    name: "broadcast_banner_cta",
    introduced_by_url: "https://collab.example/collab/collab/-/merge_requests/102",
    rollout_issue_url: "https://collab.example/collab/collab/-/issues/202",
    milestone: "18.5",
    type: "experiment",
    group: "group::activation",
    default_enabled: false,
  },
  {
    name: "service_account_onboarding",
    introduced_by_url: "https://collab.example/collab/collab/-/merge_requests/103",
    rollout_issue_url: null,
    milestone: "18.6",
    type: "experiment",
    group: "group::authentication",
    default_enabled: true,
  },
];

/** Flipper's view of a flag: on (boolean gate true), conditional (any other gate), off. */
export function currentStatus(def: ExperimentDefinition, stored: Gate[] | undefined): ExperimentStatus {
  const gates: Gate[] = stored ?? [{ key: "boolean", value: def.default_enabled }];
  const boolean = gates.find((g) => g.key === "boolean");
  const conditional = gates.some((g) => g.key !== "boolean" && g.value !== null && g.value !== 0 && !(Array.isArray(g.value) && g.value.length === 0));
  const state = boolean?.value === true ? "on" : conditional ? "conditional" : "off";
  return { state, gates };
}
