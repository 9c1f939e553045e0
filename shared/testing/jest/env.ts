// Runs before every end-to-end test file: quiet logs, cheap password hashing, a random port. The
// file's database is a scratch one on TEST_DATABASE_SERVER (global-setup.ts), made by startTestApp.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

process.env.LOG_LEVEL ??= "silent";
// Password hashing at production cost would dominate tests that create many users.
process.env.PASSWORD_HASH_COST ??= "1024";
process.env.PORT = "0";
process.env.EXTERNAL_URL ??= "http://collab.test";
// The key integrations, admin and runners seal the credentials they store with (the distributed
// pass's topology passes its own to every process and to the tests).
process.env.SECRETS_KEY ??= randomBytes(32).toString("base64");
// The test file's git storages, `default` and `other` (storage moves): folders of its own in the
// temp folder, served by its one process (the distributed pass's topology gives each
// repositories replica one of them).
if (!process.env.REPOSITORY_STORAGES) {
  const storagesRoot = mkdtempSync(path.join(tmpdir(), "collab-repositories-"));
  process.env.REPOSITORY_STORAGES = `default:${path.join(storagesRoot, "default")},other:${path.join(storagesRoot, "other")}`;
}
