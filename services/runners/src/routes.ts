import type { RouteDef } from "@collab/core";

const R = "runners";
/** Runner routes under /runners/:id accept a manage_runner token besides api. */
const MANAGE = ["manage_runner"] as const;
const S = "/projects/:id/pipeline_schedules/:pipeline_schedule_id";
const E = "/groups/:id/protected_environments";

export const routes: RouteDef[] = [
  // Runners
  { method: "GET", path: "/runners", action: `${R}.runners.list` },
  { method: "GET", path: "/runners/all", action: `${R}.runners.list`, params: { all: true } },
  // Runner-facing endpoints authenticate with runner tokens in the params, not user tokens.
  { method: "POST", path: "/runners", action: `${R}.runners.register`, auth: "optional" },
  { method: "DELETE", path: "/runners", action: `${R}.runners.unregister`, auth: "optional" },
  { method: "POST", path: "/runners/verify", action: `${R}.runners.verify`, auth: "optional", status: 200 },
  { method: "POST", path: "/runners/reset_authentication_token", action: `${R}.runners.resetOwnToken`, auth: "optional" },
  { method: "POST", path: "/runners/reset_registration_token", action: `${R}.runners.resetRegistrationToken`, params: { source: "instance" } },
  { method: "GET", path: "/runners/:id", action: `${R}.runners.get`, scopes: MANAGE },
  { method: "PUT", path: "/runners/:id", action: `${R}.runners.update`, scopes: MANAGE },
  { method: "DELETE", path: "/runners/:id", action: `${R}.runners.delete`, scopes: MANAGE },
  { method: "GET", path: "/runners/:id/jobs", action: `${R}.runners.jobs`, scopes: MANAGE },
  { method: "POST", path: "/runners/:id/reset_authentication_token", action: `${R}.runners.resetToken`, scopes: MANAGE },
  { method: "GET", path: "/projects/:id/runners", action: `${R}.runners.listProject` },
  { method: "POST", path: "/projects/:id/runners", action: `${R}.runners.enableProject` },
  { method: "POST", path: "/projects/:id/runners/reset_registration_token", action: `${R}.runners.resetRegistrationToken`, params: { source: "projects" } },
  { method: "DELETE", path: "/projects/:id/runners/:runner_id", action: `${R}.runners.disableProject` },
  { method: "GET", path: "/groups/:id/runners", action: `${R}.runners.listGroup` },
  { method: "POST", path: "/groups/:id/runners/reset_registration_token", action: `${R}.runners.resetRegistrationToken`, params: { source: "groups" } },
  // The runner's job API: a runner token picks a job, the job's own token reports its end.
  { method: "POST", path: "/jobs/request", action: `${R}.jobs.request`, auth: "optional" },
  { method: "PUT", path: "/jobs/:id", action: `${R}.jobs.update`, auth: "optional" },
  { method: "POST", path: "/user/runners", action: `${R}.runners.createForUser`, scopes: ["create_runner"] },

  // Pipeline schedules
  { method: "GET", path: "/projects/:id/pipeline_schedules", action: `${R}.schedules.list` },
  { method: "POST", path: "/projects/:id/pipeline_schedules", action: `${R}.schedules.create` },
  { method: "GET", path: S, action: `${R}.schedules.get` },
  { method: "PUT", path: S, action: `${R}.schedules.update` },
  { method: "DELETE", path: S, action: `${R}.schedules.delete` },
  { method: "GET", path: `${S}/pipelines`, action: `${R}.schedules.pipelines` },
  { method: "POST", path: `${S}/take_ownership`, action: `${R}.schedules.takeOwnership` },
  { method: "POST", path: `${S}/play`, action: `${R}.schedules.play` },
  { method: "POST", path: `${S}/variables`, action: `${R}.schedules.variables.create` },
  { method: "PUT", path: `${S}/variables/:key`, action: `${R}.schedules.variables.update` },
  { method: "DELETE", path: `${S}/variables/:key`, action: `${R}.schedules.variables.delete` },

  // Group protected environments (Premium and Ultimate)
  { method: "GET", path: E, action: `${R}.protectedEnvironments.list` },
  { method: "POST", path: E, action: `${R}.protectedEnvironments.protect` },
  { method: "GET", path: `${E}/:name`, action: `${R}.protectedEnvironments.get` },
  { method: "PUT", path: `${E}/:name`, action: `${R}.protectedEnvironments.update` },
  { method: "DELETE", path: `${E}/:name`, action: `${R}.protectedEnvironments.unprotect`, status: 200 },
];
