import { applySettings, ENFORCED_SETTINGS_DEFAULTS, errorBodyOf, resetSettings } from "@collab/core";
import { assertMayGrantLevel, isBotOf, isResourceBot, resourceTokenExpiry } from "./resource-tokens";

const now = new Date("2026-03-10T15:00:00Z");

function failure(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    return errorBodyOf(err);
  }
  throw new Error("expected a failure");
}

// GitLab's defaults, given explicitly (a process without settings refuses to act: currentSettings).
beforeEach(() => resetSettings());

describe("resourceTokenExpiry", () => {
  test("with required expiry: a year by default, at most a year ahead (GitLab's model error as a bad request)", () => {
    expect(resourceTokenExpiry(undefined, now)).toBe("2027-03-10");
    expect(resourceTokenExpiry("2027-03-10", now)).toBe("2027-03-10");
    expect(resourceTokenExpiry("2020-01-01", now)).toBe("2020-01-01"); // already expired: allowed, refused when used
    expect(failure(() => resourceTokenExpiry("2027-03-11", now))).toEqual({ status: 400, body: { message: "400 Bad request - Expires at must be before 2027-03-10" } });
  });

  test("without required expiry: none by default, any date", () => {
    applySettings({ version: 1, settings: { ...ENFORCED_SETTINGS_DEFAULTS, require_personal_access_token_expiry: false } }, true);
    expect(resourceTokenExpiry(undefined, now)).toBeNull();
    expect(resourceTokenExpiry("2099-01-01", now)).toBe("2099-01-01");
  });
});

describe("assertMayGrantLevel", () => {
  test("a caller hands out no more than their own role; administrators (60) anything", () => {
    expect(() => assertMayGrantLevel(40, 40)).not.toThrow();
    expect(() => assertMayGrantLevel(50, 50)).not.toThrow();
    expect(() => assertMayGrantLevel(60, 50)).not.toThrow();
    expect(failure(() => assertMayGrantLevel(40, 50))).toEqual({
      status: 400,
      body: { message: "400 Bad request - Access level of the token contains permissions not held by the creating user" },
    });
  });
});

describe("bot checks", () => {
  test("isBotOf matches type and id; isResourceBot any project or group bot", () => {
    const bot = { botResourceType: "project", botResourceId: 7 };
    expect(isBotOf(bot, { type: "project", id: 7 })).toBe(true);
    expect(isBotOf(bot, { type: "project", id: 8 })).toBe(false);
    expect(isBotOf(bot, { type: "group", id: 7 })).toBe(false);
    expect(isBotOf(undefined, { type: "project", id: 7 })).toBe(false);
    expect(isResourceBot(bot)).toBe(true);
    expect(isResourceBot({ botResourceType: null })).toBe(false);
    expect(isResourceBot(undefined)).toBe(false);
  });
});
