import { Accounts } from "@collab/accounts-contract";
import { implement, notFound, presentUserRef, unauthorized, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, ilike, inArray, or, sql } from "drizzle-orm";
import { users } from "./db/schema";
import { bootstrapRoot } from "./domain/bootstrap";
import { assertCanSignIn, authenticateToken, callerFromUser } from "./domain/tokens";
import { findUserByIdOrUsername, userRefsByIds, userRefsByIdsOrNames, usersByIds } from "./finders/users.finder";

/**
 * Bus only: who a token or a Sudo header stands for (the gateway), what other services need to
 * know about users (presenters, members, approvals), and root's bootstrap (tests).
 */
export const usersBusActions = (kit: ServiceKit): ImplementedAction[] => [
  /** Token → caller, for the gateway. 401 bodies follow GitLab's expired/revoked wording. */
  implement(Accounts.authenticate, (ctx) => authenticateToken(kit.db, ctx.params.token)),

  /**
   * The caller a CI/CD job token stands for: the job's user, who must still be able to sign in
   * (a blocked user's jobs lose their token's access, as GitLab's job token auth checks).
   */
  implement(Accounts.jobCaller, async (ctx) => {
    const [user] = await usersByIds(kit.db, { ids: [ctx.params.user_id] });
    if (!user) throw unauthorized();
    assertCanSignIn(user);
    return callerFromUser(user);
  }),

  /** The Sudo header's target, for admins. */
  implement(Accounts.resolveSudo, async (ctx) => {
    const user = await findUserByIdOrUsername(kit.db, ctx.params.ref);
    if (!user) throw notFound(`User with ID or username '${ctx.params.ref}'`);
    return callerFromUser(user);
  }),

  /** Batch user refs for other services' presenters: one call per page, never per row. */
  implement(Accounts.users.refs, async (ctx) => {
    const ids = [...new Set(ctx.params.ids)];
    const names = [...new Set(ctx.params.usernames.map((u) => u.toLowerCase()))];
    if (ids.length === 0 && names.length === 0) return [];
    const rows = names.length === 0 ? await userRefsByIds(kit.db, { ids }) : await userRefsByIdsOrNames(kit.db, { ids, names });
    return rows.map((u) => presentUserRef(u, kit.baseUrl));
  }),

  /** Which of these users match a members-list `query` (name, username or email). */
  implement(Accounts.users.match, async (ctx) => {
    if (ctx.params.ids.length === 0) return [];
    const term = `%${ctx.params.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await kit.db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, ctx.params.ids), or(ilike(users.name, term), ilike(users.username, term), ilike(users.email, term))));
    return rows.map((r) => r.id);
  }),

  /**
   * What the namespaces service needs of members for seats, billable members and invitations
   * (state, whether a person, e-mail addresses and their confirmation, activity).
   */
  implement(Accounts.users.memberDetails, async (ctx) => {
    const ids = [...new Set(ctx.params.ids)];
    if (ids.length === 0) return [];
    const rows = await kit.db.select().from(users).where(inArray(users.id, ids));
    return rows.map((u) => ({
      id: u.id,
      username: u.username,
      name: u.name,
      state: u.state,
      human: u.userType === "human" && !u.bot,
      email: u.email,
      public_email: u.publicEmail || null,
      confirmed: u.confirmedAt !== null,
      last_activity_on: u.lastActivityOn,
      created_at: u.createdAt.toISOString(),
    }));
  }),

  /** The users whose confirmed primary address is one of `emails` (case-insensitive). */
  implement(Accounts.users.byVerifiedEmails, async (ctx) => {
    const emails = [...new Set(ctx.params.emails.map((e) => e.toLowerCase()))];
    if (emails.length === 0) return [];
    const rows = await kit.db
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(and(inArray(sql`lower(${users.email})`, emails), sql`${users.confirmedAt} IS NOT NULL`));
    return rows.map((r) => ({ ...r, email: r.email.toLowerCase() }));
  }),

  /** What the user may create (asked by @collab/core's userLimits), read at creation time. */
  implement(Accounts.users.limits, async (ctx) => {
    const user = await findUserByIdOrUsername(kit.db, ctx.params.id);
    if (!user) throw notFound("User");
    return { id: user.id, admin: user.admin, can_create_group: user.canCreateGroup, projects_limit: user.projectsLimit };
  }),

  /** Recreates root after a wipe (tests); a no-op when users exist. */
  implement(Accounts.bootstrap, (ctx) => bootstrapRoot(kit.db, ctx.params.token).then(({ created }) => ({ created }))),
];
