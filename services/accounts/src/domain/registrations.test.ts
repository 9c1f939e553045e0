import { ENFORCED_SETTINGS_DEFAULTS, type SettingsSnapshot } from "@collab/core";
import { domainMatches, nameOf, signUpEmailAllowed } from "./registrations";

const settings = (over: Partial<SettingsSnapshot>): SettingsSnapshot => ({ ...ENFORCED_SETTINGS_DEFAULTS, ...over }) as SettingsSnapshot;

describe("sign-up restrictions", () => {
  test("domain patterns match whole domains, case-insensitively, * as any run of characters", () => {
    expect(domainMatches(["example.com"], "a@example.com")).toBe(true);
    expect(domainMatches(["example.com"], "a@EXAMPLE.com")).toBe(true);
    expect(domainMatches(["example.com"], "a@sub.example.com")).toBe(false);
    expect(domainMatches(["example.com"], "a@example.com.evil")).toBe(false);
    expect(domainMatches(["*.example.com"], "a@sub.example.com")).toBe(true);
    expect(domainMatches(["*.example.com"], "a@example.com")).toBe(false);
    expect(domainMatches(["exa.ple.com"], "a@exaxple.com")).toBe(false); // dots are literal
    expect(domainMatches(["([a-zA-Z0-9]+)+\\.com"], "a@aaaaaaaaaaaaaaaaaaaaaaaaaaaa!.com")).toBe(false); // escaped, no backtracking
  });

  test("allowlist first (it overrides the others), then the denylist and email restrictions when enabled", () => {
    expect(signUpEmailAllowed("a@any.test", settings({}))).toBe(true);
    expect(signUpEmailAllowed("a@spam.test", settings({ domain_denylist: ["spam.test"] }))).toBe(true);
    expect(signUpEmailAllowed("a@spam.test", settings({ domain_denylist_enabled: true, domain_denylist: ["spam.test"] }))).toBe(false);
    const allow = settings({ domain_allowlist: ["ok.test"], domain_denylist_enabled: true, domain_denylist: ["ok.test"], email_restrictions_enabled: true, email_restrictions: "\\+" });
    expect(signUpEmailAllowed("a+b@ok.test", allow)).toBe(true);
    expect(signUpEmailAllowed("a@other.test", allow)).toBe(false);
    expect(signUpEmailAllowed("a+b@x.test", settings({ email_restrictions_enabled: true, email_restrictions: "\\+" }))).toBe(false);
    expect(signUpEmailAllowed("a+b@x.test", settings({ email_restrictions_enabled: false, email_restrictions: "\\+" }))).toBe(true);
    expect(signUpEmailAllowed("a@x.test", settings({ email_restrictions_enabled: true, email_restrictions: "(" }))).toBe(true);
  });

  test("the name is `name`, else first and last name joined", () => {
    expect(nameOf({ name: " Alice " })).toBe("Alice");
    expect(nameOf({ first_name: "Alice", last_name: "Liddell" })).toBe("Alice Liddell");
    expect(nameOf({ first_name: "Alice" })).toBe("Alice");
    expect(nameOf({})).toBe("");
  });
});
