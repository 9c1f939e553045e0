import { Accounts } from "@collab/accounts-contract";
import { call, type Ctx } from "@collab/core";
import { validInviteEmail } from "../invitations/invite-token";
import { userRefs, userRefsByUsername } from "../shared/users";
import { MEMBER_ERRORS, type Invitee, type Outcome } from "./creator";

/**
 * Members::CreatorService.parse_users_list: ids (digits only) and usernames name existing users,
 * keyed by username; an address whose owner has it confirmed names that user, keyed by the
 * address; any other valid address is an invitation. Unknown ids and usernames are dropped, as
 * GitLab drops them; an address that is not one is an error of its own. A user named twice is
 * added once.
 */
export async function resolveInvitees(
  ctx: Ctx<unknown>,
  input: { userIds?: string[]; usernames?: string[]; emails?: string[] },
): Promise<{ invitees: Invitee[]; errors: Record<string, string> }> {
  const errors: Record<string, string> = {};
  const ids = (input.userIds ?? []).filter((s) => /^\d+$/.test(s) && Number(s) <= 2_147_483_647).map(Number);
  const [byId, byName] = await Promise.all([userRefs(ctx, ids), userRefsByUsername(ctx, input.usernames ?? [])]);
  const invitees: Invitee[] = [];
  const seen = new Set<number>();
  const addUser = (id: number, key: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    invitees.push({ key, userId: id });
  };
  for (const id of ids) {
    const u = byId.get(id);
    if (u) addUser(u.id, u.username);
  }
  for (const u of byName) addUser(u.id, u.username);

  const emails: { given: string; email: string }[] = [];
  for (const given of input.emails ?? []) {
    const email = given.toLowerCase();
    if (!validInviteEmail(email)) errors[given] = MEMBER_ERRORS.invalidEmail;
    else if (!emails.some((e) => e.email === email)) emails.push({ given, email });
  }
  if (emails.length) {
    const owners = await call(ctx, Accounts.users.byVerifiedEmails, { emails: emails.map((e) => e.email) });
    const ownerOf = new Map(owners.map((o) => [o.email, o]));
    for (const { given, email } of emails) {
      const owner = ownerOf.get(email);
      if (owner) addUser(owner.id, given);
      else invitees.push({ key: given, email });
    }
  }
  return { invitees, errors };
}

/** The invitations API's answer: GitLab's {status, message: {key: reason}} and queued_users. */
export function invitationAnswer(outcomes: Outcome[], errors: Record<string, string>) {
  const message: Record<string, string> = { ...errors };
  const queued: Record<string, string> = {};
  for (const o of outcomes) {
    if (o.kind === "error") message[o.key] = o.message;
    if (o.kind === "queued") queued[o.key] = MEMBER_ERRORS.queued;
  }
  const withQueued = Object.keys(queued).length ? { queued_users: queued } : {};
  return Object.keys(message).length ? { status: "error", message, ...withQueued } : { status: "success", ...withQueued };
}
