import { ApiError, type Config } from "@collab/core";

/**
 * Group SAML SSO and SCIM are Premium and Ultimate features. GitLab offers group SCIM on its hosted
 * offering only; here every offering has it (the README's availability table says so). On the Free
 * tier the routes are not mounted, as in a Community Edition install: the catch-all 404.
 */
export const samlAvailable = (config: Pick<Config, "LICENSE_TIER">) => config.LICENSE_TIER !== "free";

export function requireSamlTier(config: Pick<Config, "LICENSE_TIER">) {
  if (!samlAvailable(config)) throw new ApiError(404, { error: "404 Not Found" }, "NOT_FOUND");
}
