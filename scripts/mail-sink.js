// An SMTP receiver on loopback that keeps every mail it is given as a raw .eml file in a folder:
// the distributed pass's jest globalSetup starts one and hands its URL to the topology's services
// (SMTP_URL), and the folder to the test workers (TEST_MAIL_DIR), which read the mails from there
// (shared/testing/src/mailbox.ts). No TLS, no authentication: tests only.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { SMTPServer } = require("smtp-server");

async function startMailSink(dir) {
  fs.mkdirSync(dir, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, done) {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => {
        // Written under a temporary name, then renamed: a reader never sees half a mail.
        const name = `${Date.now()}-${process.pid}-${++n}.eml`;
        const tmp = path.join(dir, `.${name}.tmp`);
        fs.writeFileSync(tmp, Buffer.concat(chunks));
        fs.renameSync(tmp, path.join(dir, name));
        done();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address();
  return { url: `smtp://127.0.0.1:${port}`, dir, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

module.exports = { startMailSink };
