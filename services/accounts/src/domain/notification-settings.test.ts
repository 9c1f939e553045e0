import { checkNotificationEmail, EMAIL_NOT_VERIFIED, notificationEmailOf, verifiedEmails } from "./notification-settings";

const confirmed = { email: "Alice@Example.com", confirmedAt: new Date() };
const unconfirmed = { email: "carol@example.com", confirmedAt: null };

describe("notification email", () => {
  test("a user's verified addresses: the primary one once confirmed", () => {
    expect(verifiedEmails(confirmed)).toEqual(["Alice@Example.com"]);
    expect(verifiedEmails(unconfirmed)).toEqual([]);
  });

  test("a verified address is stored as the user spells it; blank resets; anything else is GitLab's validation error", () => {
    expect(checkNotificationEmail(confirmed, " alice@example.com ")).toBe("Alice@Example.com");
    expect(checkNotificationEmail(confirmed, "  ")).toBeNull();
    expect(checkNotificationEmail(unconfirmed, "")).toBeNull();
    for (const [user, address] of [[confirmed, "bob@example.com"], [unconfirmed, "carol@example.com"]] as const) {
      expect(() => checkNotificationEmail(user, address)).toThrow(expect.objectContaining({ code: 400, data: { body: { message: { notification_email: [EMAIL_NOT_VERIFIED] } } } }));
    }
  });

  test("mail goes to the chosen address while it is verified, else to the primary one", () => {
    expect(notificationEmailOf(confirmed, "Alice@Example.com")).toBe("Alice@Example.com");
    expect(notificationEmailOf(confirmed, null)).toBe("Alice@Example.com");
    expect(notificationEmailOf({ ...confirmed, email: "alice@new.test" }, "Alice@Example.com")).toBe("alice@new.test");
    expect(notificationEmailOf(unconfirmed, undefined)).toBe("carol@example.com");
  });
});
