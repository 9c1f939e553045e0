import { AccessLevel } from "@collab/core";
import { canReadCode } from "./permissions";

const project = (visibility: string, repository_access_level = "enabled") => ({ visibility, repository_access_level });

test("a private project's code is for Reporters and up", () => {
  expect(canReadCode(project("private"), AccessLevel.GUEST)).toBe(false);
  expect(canReadCode(project("private"), AccessLevel.REPORTER)).toBe(true);
});

test("a public project's code is for everybody, unless the feature is limited or off", () => {
  expect(canReadCode(project("public"), 0)).toBe(true);
  expect(canReadCode(project("public", "private"), 0)).toBe(false);
  expect(canReadCode(project("public", "private"), AccessLevel.GUEST)).toBe(true);
  expect(canReadCode(project("public", "disabled"), AccessLevel.OWNER)).toBe(false);
});
