import { createHash, randomBytes } from "node:crypto";

/**
 * Invite tokens: 32 random bytes, URL-safe. Only the SHA-256 digest is stored (as with personal
 * access tokens), so the database never holds a token that would accept an invitation; the token
 * itself travels once, in the invitation mail.
 */
export const newInviteToken = () => randomBytes(32).toString("base64url");

export const inviteTokenDigest = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** Devise.email_regexp, which GitLab's invitations use: something@something, no spaces. */
export const validInviteEmail = (email: string) => /^[^@\s]+@[^@\s]+$/.test(email) && email.length <= 255;
