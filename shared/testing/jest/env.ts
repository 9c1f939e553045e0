// Runs before every end-to-end test file: quiet logs and a per-file embedded database.
process.env.LOG_LEVEL ??= "silent";
// Password hashing at production cost would dominate tests that create many users.
process.env.PASSWORD_HASH_COST ??= "1024";
process.env.PORT = "0";
process.env.EXTERNAL_URL ??= "http://collab.test";
if (!process.env.DATABASE_URL && !process.env.TEST_DATABASE_SERVER) process.env.PGLITE_DATA_DIR = "memory://";
