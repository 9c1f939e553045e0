import { compareVersions, keptPackageJson } from "./npm.actions";

describe("npm helpers", () => {
  test("SemVer precedence picks latest", () => {
    const sorted = ["1.0.0", "1.0.0-beta.2", "1.0.0-alpha", "0.9.9", "1.0.0-beta.11", "2.0.0"].sort(compareVersions);
    expect(sorted).toEqual(["0.9.9", "1.0.0-alpha", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0", "2.0.0"]);
  });

  test("published package.json: bulky fields dropped, install scripts flagged", () => {
    expect(keptPackageJson({ name: "a", readme: "long", contributors: [], scripts: { postinstall: "x" } })).toEqual({ name: "a", scripts: { postinstall: "x" }, hasInstallScript: true });
    expect(keptPackageJson({ name: "a", scripts: { test: "jest" } })).toEqual({ name: "a", scripts: { test: "jest" } });
  });
});
