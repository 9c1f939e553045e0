import { hashPassword, verifyPassword } from "./passwords";

describe("passwords", () => {
  afterEach(() => delete process.env.PASSWORD_HASH_COST);

  test("a digest verifies its password and no other", async () => {
    const digest = await hashPassword("correct horse");
    expect(digest).toMatch(/^scrypt\$16384\$/);
    expect(await verifyPassword("correct horse", digest)).toBe(true);
    expect(await verifyPassword("wrong horse", digest)).toBe(false);
  });

  test("digests keep verifying after the cost changes", async () => {
    process.env.PASSWORD_HASH_COST = "1024";
    const cheap = await hashPassword("pw-12345678");
    expect(cheap).toMatch(/^scrypt\$1024\$/);
    delete process.env.PASSWORD_HASH_COST;
    expect(await verifyPassword("pw-12345678", cheap)).toBe(true);
  });
});
