import { call, errorBodyOf, type Ctx } from "@collab/core";
import type { Db, ServiceKit } from "@collab/db";
import { sql } from "drizzle-orm";
import type { CreateUserParams } from "@collab/accounts-contract";
import { users, type UserRow } from "../db/schema";
import type { SamlProviderRow, ScimIdentityRow } from "../db/saml.schema";
import { userCreated } from "../domain/personal-namespaces";
import { createUser } from "../domain/users";
import { grantMembership, revokeMembership, type GroupSummary } from "./groups";
import { changeExternUid, createIdentity, findIdentityWithUser, IdentityRejected, setIdentityActive } from "./identities";
import type { ScimAttributes } from "./scim.params";
import { sanitizeUsername, uniqueUsername } from "./usernames";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * SCIM provisioning of a group's users (Gitlab::Scim::Group::{Provisioning,Deprovisioning,
 * Reprovisioning}Service). Users and identities are written here; memberships by the namespaces
 * service through its bus actions, after the local transaction: every step is idempotent, so an
 * identity provider retrying a request that failed halfway completes it.
 */
export interface ScimScope {
  group: GroupSummary;
  provider: SamlProviderRow;
}

/** A provisioning failure, GitLab's ProvisioningResponse: `conflict` (409) when something is taken, else `error` (412). */
export class ProvisioningFailed extends Error {
  constructor(
    readonly status: "conflict" | "error",
    message: string,
  ) {
    super(message);
  }
}

/** Rails' full messages of a model error from createUser: `Email is invalid`, `Username has already been taken`. */
function failureOf(err: unknown): ProvisioningFailed | undefined {
  if (err instanceof IdentityRejected) return new ProvisioningFailed(err.message.includes("taken") ? "conflict" : "error", err.message);
  const known = errorBodyOf(err);
  if (!known || known.status >= 500) return undefined;
  const { message } = known.body;
  let text: string;
  if (typeof message === "string") text = message;
  else if (message && typeof message === "object")
    text = Object.entries(message as Record<string, string[]>)
      .flatMap(([field, msgs]) => msgs.map((m) => (field === "base" ? m : `${field[0].toUpperCase()}${field.slice(1).replace(/_/g, " ")} ${m}`)))
      .join(", ");
  else return undefined;
  return new ProvisioningFailed(text.includes("has already been taken") ? "conflict" : "error", text);
}

const REQUIRED: (keyof ScimAttributes)[] = ["extern_uid", "email", "username"];

async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

/** The username a new user gets: the sanitized userName, made unique among users and namespace paths. */
async function availableUsername(kit: ServiceKit, ctx: Ctx<unknown>, userName: string): Promise<string> {
  const username = await uniqueUsername(sanitizeUsername(userName), async (candidate) => {
    const [taken] = await kit.db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = lower(${candidate})`);
    if (taken) return false;
    const { available } = await call(ctx, Namespaces.userNamespaces.pathAvailable, { path: candidate, user_id: 0 });
    return available;
  });
  if (!username) throw new ProvisioningFailed("conflict", "Username has already been taken");
  return username;
}

/**
 * POST /Users. An identity with the extern_uid already there answers as it is (its user made a
 * member again if needed); otherwise the user with that e-mail address gets the identity, or a new
 * user is created with it (confirmed, a random password, provisioned by the group). The user then
 * becomes a member at the provider's default membership role unless already one.
 */
export async function provisionUser(
  kit: ServiceKit,
  ctx: Ctx<unknown>,
  scope: ScimScope,
  attrs: ScimAttributes,
): Promise<{ identity: ScimIdentityRow; user: UserRow }> {
  const missing = REQUIRED.filter((k) => attrs[k] === undefined || attrs[k] === "");
  if (missing.length > 0) throw new ProvisioningFailed("error", `Missing params: [${missing.map((k) => `:${k}`).join(", ")}]`);
  const { group, provider } = scope;
  const level = provider.defaultMembershipRole;
  try {
    const existing = await findIdentityWithUser(kit.db, group.id, attrs.extern_uid!);
    if (existing) {
      await grantMembership(ctx, group.id, existing.user.id, level);
      if (!existing.identity.active) await setIdentityActive(kit.db, existing.identity.id, true);
      return { identity: { ...existing.identity, active: true }, user: existing.user };
    }
    let user = await findUserByEmail(kit.db, attrs.email!);
    let identity: ScimIdentityRow;
    if (user) {
      identity = await createIdentity(kit.db, { groupId: group.id, userId: user.id, externUid: attrs.extern_uid! });
    } else {
      const username = await availableUsername(kit, ctx, attrs.username!);
      const params = { username, email: attrs.email!, name: attrs.name ?? "", skip_confirmation: true } as CreateUserParams;
      ({ user, identity } = await kit.db.transaction(async (tx) => {
        const created = await createUser(tx as unknown as Db, params, { provisionedByGroupId: group.id });
        await kit.events.publishIn(tx as unknown as Db, [userCreated(created)]);
        return { user: created, identity: await createIdentity(tx as unknown as Db, { groupId: group.id, userId: created.id, externUid: attrs.extern_uid! }) };
      }));
      // The personal namespace follows (namespaces); in one process before the membership below.
      await kit.events.flush();
    }
    await grantMembership(ctx, group.id, user.id, level);
    return { identity, user };
  } catch (err) {
    throw failureOf(err) ?? err;
  }
}

/** Deprovisioning: memberships of the group (and below) go, the identity turns inactive; false for the group's last Owner. */
export async function deprovision(ctx: Ctx<unknown>, kit: ServiceKit, scope: ScimScope, identity: ScimIdentityRow): Promise<boolean> {
  if ((await revokeMembership(ctx, scope.group.id, identity.userId)) === "last_owner") return false;
  await setIdentityActive(kit.db, identity.id, false);
  return true;
}

/** Reprovisioning: the identity turns active again and its user a member at the default role (unless one). */
export async function reprovision(ctx: Ctx<unknown>, kit: ServiceKit, scope: ScimScope, identity: ScimIdentityRow): Promise<void> {
  await grantMembership(ctx, scope.group.id, identity.userId, scope.provider.defaultMembershipRole);
  await setIdentityActive(kit.db, identity.id, true);
}

/**
 * API::Helpers::ScimHelpers#update_scim_user, for PATCH and PUT: `active` false deprovisions; any
 * other change of an inactive identity reprovisions it; else a new extern_uid is saved. Other
 * attributes (userName, name, emails) are accepted and ignored, as GitLab does since 15.0. False
 * when the change could not be made (the last Owner, a taken or blank extern_uid).
 */
export async function updateScimUser(ctx: Ctx<unknown>, kit: ServiceKit, scope: ScimScope, identity: ScimIdentityRow, attrs: ScimAttributes): Promise<boolean> {
  if (attrs.active === false) return deprovision(ctx, kit, scope, identity);
  if (!identity.active) {
    await reprovision(ctx, kit, scope, identity);
    return true;
  }
  if (attrs.extern_uid !== undefined && attrs.extern_uid !== identity.externUid) {
    try {
      await changeExternUid(kit.db, identity, attrs.extern_uid);
    } catch (err) {
      if (err instanceof IdentityRejected) return false;
      throw err;
    }
  }
  return true;
}
