import { errorBodyOf } from "./errors";

type Settings = typeof import("./settings");
/** A fresh copy of the module: its snapshot is per process, each test starts as a new process. */
const fresh = (): Settings => {
  let mod!: Settings;
  jest.isolateModules(() => {
    mod = require("./settings") as Settings;
  });
  return mod;
};

test("a process without its settings refuses to act (503) rather than use defaults it was not given", () => {
  const s = fresh();
  expect(s.settingsLoaded()).toBe(false);
  let err: unknown;
  try {
    s.currentSettings();
  } catch (e) {
    err = e;
  }
  expect(errorBodyOf(err)).toEqual({ status: 503, body: { message: "503 Service Unavailable" } });
});

test("once given they are served, and settingsReady resolves", async () => {
  const s = fresh();
  const ready = s.settingsReady();
  s.applySettings({ version: 5, settings: { ...s.ENFORCED_SETTINGS_DEFAULTS, signup_enabled: false } });
  await expect(ready).resolves.toBeUndefined();
  expect(s.currentSettings().signup_enabled).toBe(false);
  // An older message (a late broadcast) does not undo a newer one.
  expect(s.applySettings({ version: 4, settings: { ...s.ENFORCED_SETTINGS_DEFAULTS, signup_enabled: true } })).toBe(false);
  expect(s.currentSettings().signup_enabled).toBe(false);
});

test("the first load takes whatever version admin has, even 0 (its defaults)", () => {
  const s = fresh();
  expect(s.applySettings({ version: 0, settings: { ...s.ENFORCED_SETTINGS_DEFAULTS } })).toBe(true);
  expect(s.currentSettings().deletion_adjourned_period).toBe(30);
});
