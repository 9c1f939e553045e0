import { atLeastOneOf, gBool, gInt, gString } from "@collab/core";
import { z } from "zod";

/**
 * Params of the SAML/SCIM routes. The SCIM request bodies are read as GitLab's
 * Gitlab::Scim::ParamsParser reads them (the service's scim/scim.params.ts).
 */

/** A group in a /api/v4 path: id or URL-encoded full path. */
const groupRef = () => gString().refine((s) => s.length > 0, { error: "is invalid" });

/** A SCIM string attribute: null counts as absent, numbers as their text. */
const scimText = () => gString().nullish();

/** The SCIM User attributes GitLab reads; any other attribute is ignored. */
const ScimUserAttributes = {
  id: scimText(),
  externalId: scimText(),
  userName: scimText(),
  displayName: scimText(),
  name: z.object({ formatted: scimText(), givenName: scimText(), familyName: scimText() }).nullish(),
  emails: z.array(z.object({ value: scimText(), type: scimText(), primary: z.unknown().optional() })).nullish(),
  active: z.union([z.boolean(), z.string()]).nullish(),
};

const GroupPath = { group_path: gString() };
/** `/Users/:id`: the id is the identity's extern_uid. */
const UserPath = { ...GroupPath, id: gString() };

export const ScimListParams = z.object({ ...GroupPath, filter: gString().optional(), startIndex: z.unknown().optional(), count: z.unknown().optional() });
export const ScimUserParams = z.object(UserPath);
export const ScimCreateParams = z.object({ ...ScimUserAttributes, ...GroupPath });
export const ScimPatchParams = z.object({
  ...UserPath,
  Operations: z.array(z.object({ op: gString(), path: scimText(), value: z.unknown().optional() })).nullish(),
});
/** PUT: the whole resource; its `id` is the path's (the path wins over the body). */
export const ScimReplaceParams = z.object({ ...ScimUserAttributes, ...UserPath });

export const SamlGroupParams = z.object({ id: groupRef() });
export const ScimIdentityParams = z.object({ id: groupRef(), uid: gString() });
export const UpdateScimIdentityParams = ScimIdentityParams.extend({ extern_uid: gString() });

const SAML_FIELDS = ["enabled", "sso_url", "certificate_fingerprint", "enforced_sso", "default_membership_role"] as const;
export const UpdateSamlParams = z
  .object({
    id: groupRef(),
    enabled: gBool().optional(),
    sso_url: gString().optional(),
    certificate_fingerprint: gString().optional(),
    enforced_sso: gBool().optional(),
    default_membership_role: gInt().optional(),
  })
  .superRefine(atLeastOneOf(...SAML_FIELDS));
