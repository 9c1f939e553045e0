import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { loadConfig } from "./config";
import { createMailer, mailFrom } from "./mailer";

const logger = () => {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => lines.push({ level: "info", obj: obj as Record<string, unknown>, msg }),
    warn: (obj: object, msg: string) => lines.push({ level: "warn", obj: obj as Record<string, unknown>, msg }),
  };
};

describe("createMailer", () => {
  test("without SMTP_URL a mail is logged by recipient and subject, never its body", async () => {
    const log = logger();
    const mailer = createMailer(loadConfig({}), log);
    await mailer.send({ to: "a@example.com", subject: "Hello", text: "secret link http://x/-/invites/abc" });
    expect(log.lines).toEqual([{ level: "info", obj: { to: "a@example.com", subject: "Hello" }, msg: "mail not sent (SMTP_URL is not set)" }]);
    expect(JSON.stringify(log.lines)).not.toContain("secret");
  });

  test("with SMTP_URL the mail reaches an SMTP server, from noreply@ the external host", async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          received.push(Buffer.concat(chunks).toString("utf8"));
          done();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.server.address() as AddressInfo;
    const config = loadConfig({ SMTP_URL: `smtp://127.0.0.1:${port}`, EXTERNAL_URL: "https://collab.example.org" });
    expect(mailFrom(config)).toBe("Collab <noreply@collab.example.org>");
    const log = logger();
    const mailer = createMailer(config, log);
    try {
      await mailer.send({ to: "b@example.com", subject: "Invitation", text: "Join us" });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatch(/^To: b@example\.com/m);
      expect(received[0]).toMatch(/^From: Collab <noreply@collab\.example\.org>/m);
      expect(received[0]).toMatch(/^Subject: Invitation/m);
      expect(received[0]).toContain("Join us");
      expect(log.lines.map((l) => l.msg)).toEqual(["mail sent"]);
    } finally {
      mailer.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test("sendLater logs a refused mail instead of throwing", async () => {
    const log = logger();
    // Nothing listens on port 9 of loopback: the connection is refused at once.
    const mailer = createMailer(loadConfig({ SMTP_URL: "smtp://127.0.0.1:9" }), log);
    mailer.sendLater({ to: "c@example.com", subject: "Lost", text: "body" });
    for (let i = 0; i < 100 && log.lines.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(log.lines).toEqual([{ level: "warn", obj: expect.objectContaining({ to: "c@example.com", subject: "Lost" }), msg: "mail could not be sent" }]);
    mailer.close();
  });
});
