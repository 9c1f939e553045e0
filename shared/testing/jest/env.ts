// Runs before every end-to-end test file: quiet logs, cheap password hashing, a random port. The
// file's database is a scratch one on TEST_DATABASE_SERVER (global-setup.ts), made by startTestApp.
process.env.LOG_LEVEL ??= "silent";
// Password hashing at production cost would dominate tests that create many users.
process.env.PASSWORD_HASH_COST ??= "1024";
process.env.PORT = "0";
process.env.EXTERNAL_URL ??= "http://collab.test";
