import { accessLevelName, createMailer, type Mail, type Mailer } from "@collab/core";
import type { ServiceKit } from "@collab/db";

/** The page of an invitation (outside /api/v4, as GitLab's /-/invites/:token). */
export const invitationUrl = (baseUrl: string, token: string) => `${baseUrl}/-/invites/${encodeURIComponent(token)}`;

/** One mailer per service process, made on first use (the kit's config exists only once started). */
export function mailerOf(kit: ServiceKit): () => Mailer {
  let mailer: Mailer | undefined;
  return () => (mailer ??= createMailer(kit.config, kit.logger));
}

/**
 * Notify#member_invited_email: who invited, to which group or project, at which role, and the link
 * that accepts (GET shows the invitation, POST …/accept accepts it for the signed-in user).
 */
export function invitationMail(p: {
  to: string;
  inviter: { name: string; username: string } | null;
  source: { kind: "group" | "project"; fullName: string; webUrl: string };
  accessLevel: number;
  link: string;
}): Mail {
  const who = p.inviter ? `${p.inviter.name} (@${p.inviter.username})` : "Someone";
  const role = accessLevelName(p.accessLevel);
  return {
    to: p.to,
    subject: `Invitation to join the ${p.source.fullName} ${p.source.kind}`,
    text: [
      `${who} invited you to join the ${p.source.fullName} ${p.source.kind} as ${role}.`,
      "",
      `${p.source.kind === "group" ? "Group" : "Project"}: ${p.source.webUrl}`,
      "",
      "Accept the invitation:",
      p.link,
      "",
      "Sign in (or sign up) with this e-mail address to accept it. If you did not expect this invitation, ignore this mail.",
      "",
    ].join("\n"),
  };
}
