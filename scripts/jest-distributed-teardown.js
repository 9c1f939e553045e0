"use strict";

const fs = require("node:fs");

module.exports = async function teardown() {
  await globalThis.__COLLAB_TOPOLOGY__?.stop();
  const mail = globalThis.__COLLAB_MAIL__;
  if (mail) {
    await mail.stop();
    fs.rmSync(mail.dir, { recursive: true, force: true });
  }
  await globalThis.__COLLAB_TEST_PG__?.stop();
};
