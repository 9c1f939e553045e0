import type { RouteDef } from "@collab/core";
import { RunnersActions as A } from "./actions";

/** Runner routes under /runners/:id accept a manage_runner token besides api. */
export const MANAGE_RUNNER_SCOPES = ["manage_runner"] as const;
const MANAGE = MANAGE_RUNNER_SCOPES;
const S = "/projects/:id/pipeline_schedules/:pipeline_schedule_id";
const E = "/groups/:id/protected_environments";

/** The runners service's REST routes (mounted by the gateway under /api/v4). */
export const routes: RouteDef[] = [
  // Runners
  { method: "GET", path: "/runners", action: A.runners.list.name },
  { method: "GET", path: "/runners/all", action: A.runners.list.name, params: { all: true } },
  // Runner-facing endpoints authenticate with runner tokens in the params, not user tokens.
  { method: "POST", path: "/runners", action: A.runners.register.name, auth: "optional" },
  { method: "DELETE", path: "/runners", action: A.runners.unregister.name, auth: "optional" },
  { method: "POST", path: "/runners/verify", action: A.runners.verify.name, auth: "optional", status: 200 },
  { method: "POST", path: "/runners/reset_authentication_token", action: A.runners.resetOwnToken.name, auth: "optional" },
  { method: "POST", path: "/runners/reset_registration_token", action: A.runners.resetRegistrationToken.name, params: { source: "instance" } },
  { method: "GET", path: "/runners/:id", action: A.runners.get.name, scopes: MANAGE },
  { method: "PUT", path: "/runners/:id", action: A.runners.update.name, scopes: MANAGE },
  { method: "DELETE", path: "/runners/:id", action: A.runners.delete.name, scopes: MANAGE },
  { method: "GET", path: "/runners/:id/jobs", action: A.runners.jobs.name, scopes: MANAGE },
  { method: "POST", path: "/runners/:id/reset_authentication_token", action: A.runners.resetToken.name, scopes: MANAGE },
  { method: "GET", path: "/projects/:id/runners", action: A.runners.listProject.name },
  { method: "POST", path: "/projects/:id/runners", action: A.runners.enableProject.name },
  { method: "POST", path: "/projects/:id/runners/reset_registration_token", action: A.runners.resetRegistrationToken.name, params: { source: "projects" } },
  { method: "DELETE", path: "/projects/:id/runners/:runner_id", action: A.runners.disableProject.name },
  { method: "GET", path: "/groups/:id/runners", action: A.runners.listGroup.name },
  { method: "POST", path: "/groups/:id/runners/reset_registration_token", action: A.runners.resetRegistrationToken.name, params: { source: "groups" } },
  // The runner's job API: a runner token picks a job, the job's own token reports its end.
  { method: "POST", path: "/jobs/request", action: A.jobs.request.name, auth: "optional" },
  { method: "PUT", path: "/jobs/:id", action: A.jobs.update.name, auth: "optional" },
  { method: "POST", path: "/user/runners", action: A.runners.createForUser.name, scopes: ["create_runner"] },

  // Pipeline schedules
  { method: "GET", path: "/projects/:id/pipeline_schedules", action: A.schedules.list.name },
  { method: "POST", path: "/projects/:id/pipeline_schedules", action: A.schedules.create.name },
  { method: "GET", path: S, action: A.schedules.get.name },
  { method: "PUT", path: S, action: A.schedules.update.name },
  { method: "DELETE", path: S, action: A.schedules.delete.name },
  { method: "GET", path: `${S}/pipelines`, action: A.schedules.pipelines.name },
  { method: "POST", path: `${S}/take_ownership`, action: A.schedules.takeOwnership.name },
  { method: "POST", path: `${S}/play`, action: A.schedules.play.name },
  { method: "POST", path: `${S}/variables`, action: A.schedules.variables.create.name },
  { method: "PUT", path: `${S}/variables/:key`, action: A.schedules.variables.update.name },
  { method: "DELETE", path: `${S}/variables/:key`, action: A.schedules.variables.delete.name },

  // Runner API: a running job uploads artifacts with its own CI/CD job token (security reports become vulnerabilities).
  { method: "POST", path: "/jobs/:id/artifacts", action: A.jobs.artifacts.upload.name, auth: "optional", jobToken: true, files: ["file"] },

  // Group protected environments (Premium and Ultimate)
  { method: "GET", path: E, action: A.protectedEnvironments.list.name },
  { method: "POST", path: E, action: A.protectedEnvironments.protect.name },
  { method: "GET", path: `${E}/:name`, action: A.protectedEnvironments.get.name },
  { method: "PUT", path: `${E}/:name`, action: A.protectedEnvironments.update.name },
  { method: "DELETE", path: `${E}/:name`, action: A.protectedEnvironments.unprotect.name, status: 200 },
];
