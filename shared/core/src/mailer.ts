import { createTransport, type Transporter } from "nodemailer";
import { externalUrl, type Config } from "./config";

/** One outgoing mail: plain text, optionally with an HTML alternative. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender's display name over the instance's (GitLab's `sender`: "Ann (@ann)"), and its address when it may be the user's own. */
  from?: { name: string; address?: string };
  replyTo?: string;
  /** Extra headers (GitLab's X-GitLab-Project, X-GitLab-Pipeline-Id…). */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Sends (or, without SMTP_URL, logs) one mail. Rejects when the SMTP server refuses it. */
  send(mail: Mail): Promise<void>;
  /** Sends without waiting, after the caller's transaction has committed; a failure is logged. */
  sendLater(mail: Mail): void;
  close(): void;
}

/** The little of a logger the mailer needs (pino's and Moleculer's both fit). */
interface MailLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** `noreply@host`, the host of EXTERNAL_URL (GitLab's gitlab_email_from). */
export function mailFromAddress(config: Config): string {
  return `noreply@${new URL(externalUrl(config)).hostname || "localhost"}`;
}

/** `Collab <noreply@host>`. */
export function mailFrom(config: Config): string {
  return `Collab <${mailFromAddress(config)}>`;
}

/**
 * The one mailer of every service: nodemailer over SMTP when SMTP_URL is set, else a logger that
 * records that a mail would have gone out (recipient and subject only: bodies carry secrets such
 * as invitation links). The transport connects per mail, so an idle mailer holds no socket.
 */
export function createMailer(config: Config, logger: MailLogger): Mailer {
  const from = mailFrom(config);
  const fromAddress = mailFromAddress(config);
  let transport: Transporter | undefined;
  const smtp = () => (transport ??= createTransport(config.SMTP_URL!));

  async function send(mail: Mail): Promise<void> {
    if (!config.SMTP_URL) {
      logger.info({ to: mail.to, subject: mail.subject }, "mail not sent (SMTP_URL is not set)");
      return;
    }
    const sender = mail.from ? { name: mail.from.name, address: mail.from.address ?? fromAddress } : from;
    await smtp().sendMail({ from: sender, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, replyTo: mail.replyTo, headers: mail.headers });
    logger.info({ to: mail.to, subject: mail.subject }, "mail sent");
  }

  return {
    send,
    sendLater(mail) {
      send(mail).catch((err: Error) => logger.warn({ err: err.message, to: mail.to, subject: mail.subject }, "mail could not be sent"));
    },
    close() {
      transport?.close();
      transport = undefined;
    },
  };
}
