import { simpleParser } from "mailparser";
import { readdir, readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/** A mail as a test reads it. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  /** The HTML alternative, when the mail has one. */
  html: string | null;
  replyTo: string | null;
  /** Every header, lower-cased names, first value of each. */
  headers: Record<string, string>;
}

export interface Mailbox {
  /** The SMTP_URL the services send to. */
  url: string;
  /** Every mail received so far, oldest first. */
  mails(): Promise<ReceivedMail[]>;
  /** Waits (up to `timeoutMs`) for a mail to `to`, and answers the latest one. */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

async function parse(raw: Buffer): Promise<ReceivedMail> {
  const mail = await simpleParser(raw);
  const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => (v.address ?? "").toLowerCase()));
  const headers: Record<string, string> = {};
  for (const line of mail.headerLines) headers[line.key] ??= line.line.slice(line.line.indexOf(":") + 1).trim();
  return { to, from: mail.from?.text ?? "", subject: mail.subject ?? "", text: mail.text ?? "", html: typeof mail.html === "string" ? mail.html : null, replyTo: mail.replyTo?.text ?? null, headers };
}

/**
 * A real SMTP receiver for tests that check mail. In one process (the e2e pass)
 * it listens on loopback and sets SMTP_URL, so call it BEFORE starting the app (services read their
 * configuration when created); `stop` restores SMTP_URL. In the distributed pass the services run
 * elsewhere with the SMTP_URL of the receiver the jest globalSetup started
 * (scripts/jest-distributed-setup.js), which keeps each mail in TEST_MAIL_DIR: the mails are read
 * from there, and may include other test files' mails (tell them apart by recipient).
 */
export async function startMailbox(): Promise<Mailbox> {
  const dir = process.env.TEST_MAIL_DIR;
  let all: () => Promise<ReceivedMail[]>;
  let url: string;
  let stop: () => Promise<void>;
  if (dir) {
    url = process.env.SMTP_URL ?? "";
    all = async () => {
      const names = (await readdir(dir)).filter((n) => n.endsWith(".eml") && !n.startsWith(".")).sort();
      return Promise.all(names.map(async (n) => parse(await readFile(path.join(dir, n)))));
    };
    stop = async () => undefined;
  } else {
    const raws: Buffer[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          raws.push(Buffer.concat(chunks));
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    const previous = process.env.SMTP_URL;
    process.env.SMTP_URL = url;
    all = () => Promise.all(raws.map(parse));
    stop = async () => {
      if (previous === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = previous;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
  }
  return {
    url,
    mails: all,
    async waitFor(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await all()).filter((m) => m.to.includes(to.toLowerCase()));
        if (found.length) return found[found.length - 1];
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop,
  };
}
