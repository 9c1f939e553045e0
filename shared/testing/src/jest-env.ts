// Runs before every end-to-end test file: quiet logs and a per-file embedded database.
process.env.LOG_LEVEL ??= "silent";
process.env.PORT = "0";
process.env.EXTERNAL_URL ??= "http://collab.test";
if (!process.env.DATABASE_URL && !process.env.TEST_DATABASE_SERVER) process.env.PGLITE_DATA_DIR = "memory://";
