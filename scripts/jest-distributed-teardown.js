"use strict";

module.exports = async function teardown() {
  await globalThis.__COLLAB_TOPOLOGY__?.stop();
};
