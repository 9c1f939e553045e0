import { inviteTokenDigest, newInviteToken, validInviteEmail } from "./invite-token";

describe("invite tokens", () => {
  test("are random, URL-safe and stored only as a SHA-256 digest", () => {
    const a = newInviteToken();
    const b = newInviteToken();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(inviteTokenDigest(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(inviteTokenDigest(a)).toBe(inviteTokenDigest(a));
    expect(inviteTokenDigest(a)).not.toContain(a);
  });

  test.each([
    ["jane@example.com", true],
    ["a+tag@sub.example.org", true],
    ["local@host", true],
    ["no-at-sign", false],
    ["two@@example.com", false],
    ["spa ce@example.com", false],
    ["", false],
  ])("%j is %s as an invite address", (email, ok) => {
    expect(validInviteEmail(email)).toBe(ok);
  });
});
