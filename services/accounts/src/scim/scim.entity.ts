import type { SamlSettings, ScimIdentity, ScimToken, ScimUser, ScimUserList } from "@collab/accounts-contract";
import { ApiError, badRequest } from "@collab/core";
import type { UserRow } from "../db/schema";
import type { SamlProviderRow, ScimIdentityRow } from "../db/saml.schema";

/** Presenters of the SCIM API (API::Entities::Scim::*), the SCIM identities API and the SAML settings. */

export const SCIM_USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const SCIM_LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const SCIM_ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

/** User#first_name / #last_name: the name's first word, and the rest. */
const firstName = (name: string) => (name.trim() === "" ? null : name.split(/\s+/).filter(Boolean)[0]);
const lastName = (name: string) => (name.trim() === "" ? null : name.split(/\s+/).filter(Boolean).slice(1).join(" "));

/** Entities::Scim::User: the identity's extern_uid is the resource id. */
export const presentScimUser = (identity: Pick<ScimIdentityRow, "externUid" | "active">, user: Pick<UserRow, "email" | "name" | "username">): ScimUser => ({
  schemas: [SCIM_USER_SCHEMA],
  id: identity.externUid,
  active: identity.active,
  emails: [{ type: "work", value: user.email, primary: true }],
  name: { formatted: user.name, givenName: firstName(user.name), familyName: lastName(user.name) },
  meta: { resourceType: "User" },
  userName: user.username,
});

/** Entities::Scim::Users, a ListResponse. */
export const presentScimList = (resources: ScimUser[], total: number, itemsPerPage: number, startIndex: number): ScimUserList => ({
  schemas: [SCIM_LIST_SCHEMA],
  totalResults: total,
  itemsPerPage,
  startIndex,
  Resources: resources,
});

/**
 * Entities::Scim::Error and its subclasses: `{"schemas": [...Error], "detail": ..., "status": 412}`
 * (412 is GitLab's status for every SCIM failure that is not a 404 or a 409).
 */
export const scimError = (status: 404 | 409 | 412, detail: string) => new ApiError(status, { schemas: [SCIM_ERROR_SCHEMA], detail, status }, "SCIM_ERROR");
export const scimNotFound = (detail: string) => scimError(404, detail);
export const scimConflict = (detail: string) => scimError(409, detail);
export const scimFailure = (detail: string) => scimError(412, detail);

/** Entities::IdentityDetail of a SCIM identity (the SCIM identities API). */
export const presentIdentity = (i: Pick<ScimIdentityRow, "externUid" | "userId" | "active">): ScimIdentity => ({ extern_uid: i.externUid, user_id: i.userId, active: i.active });

/** 400 {"message":"400 Bad request"}: what GitLab's provider identity API answers a group without SAML. */
export const ssoNotEnabled = () => badRequest();

/** A top-level group's SAML SSO and SCIM settings (defaults until saved once). */
export const presentSamlSettings = (groupId: number, p: SamlProviderRow | undefined, scim: { enabled: boolean; apiUrl: string }): SamlSettings => ({
  id: p?.id ?? null,
  group_id: groupId,
  enabled: p?.enabled ?? false,
  sso_url: p?.ssoUrl ?? null,
  certificate_fingerprint: p?.certificateFingerprint ?? null,
  enforced_sso: p?.enforcedSso ?? false,
  default_membership_role: p?.defaultMembershipRole ?? 10,
  scim_enabled: scim.enabled,
  scim_api_url: scim.apiUrl,
});

/** ScimOauthAccessTokenEntity: the token appears in this answer only. */
export const presentScimToken = (apiUrl: string, token: string): ScimToken => ({ scim_api_url: apiUrl, scim_token: token });

/** The SCIM API base of a group, as ScimOauthAccessTokenEntity builds it. */
export const scimApiUrl = (baseUrl: string, fullPath: string) => `${baseUrl}/api/scim/v2/groups/${fullPath}`;
