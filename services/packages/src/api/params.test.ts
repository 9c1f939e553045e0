import { GenericUpload, GroupPackagesQuery, NPM_NAME, ProjectPackagesQuery, safeFilePath, SEMVER } from "@collab/packages-contract";
import { decodeCursor, encodeCursor } from "./packages.params";

describe("package params", () => {
  test("generic names, versions and file names follow GitLab's regexps", () => {
    const ok = (p: Record<string, unknown>) => GenericUpload.safeParse({ id: "1", package_name: "tool", package_version: "1.0.0", file_name: "f.bin", ...p }).success;
    expect(ok({})).toBe(true);
    expect(ok({ package_name: "my_tool-1.2+x" })).toBe(true);
    expect(ok({ package_name: "bad name" })).toBe(false);
    expect(ok({ package_version: "1..2" })).toBe(false);
    expect(ok({ package_version: "v1_beta" })).toBe(true);
    expect(ok({ file_name: "dir/sub/f.bin" })).toBe(true);
    expect(ok({ file_name: ["dir", "f.bin"] })).toBe(true);
    expect(ok({ file_name: "../f.bin" })).toBe(false);
    expect(ok({ file_name: "dir/f bin" })).toBe(false);
    expect(ok({ status: "hidden", select: "package_file" })).toBe(true);
    expect(ok({ status: "secret" })).toBe(false);
  });

  test("file paths may not climb out", () => {
    expect(safeFilePath("a/b")).toBe(true);
    expect(safeFilePath("a/../b")).toBe(false);
    expect(safeFilePath("%2e%2e/b")).toBe(false);
    expect(safeFilePath("/etc/passwd")).toBe(false);
  });

  test("npm names and versions", () => {
    expect(NPM_NAME.test("@scope/pkg")).toBe(true);
    expect(NPM_NAME.test("pkg.js")).toBe(true);
    expect(NPM_NAME.test("@scope/")).toBe(false);
    expect(NPM_NAME.test("a b")).toBe(false);
    expect(SEMVER.test("1.0.0-beta.1+build.5")).toBe(true);
    expect(SEMVER.test("1.0")).toBe(false);
  });

  test("list defaults and the group-only order", () => {
    expect(ProjectPackagesQuery.parse({ id: "1" })).toMatchObject({ order_by: "created_at", sort: "asc", page: 1, per_page: 20 });
    expect(ProjectPackagesQuery.safeParse({ id: "1", order_by: "project_path" }).success).toBe(false);
    expect(GroupPackagesQuery.parse({ id: "1", order_by: "project_path", exclude_subgroups: "true" })).toMatchObject({ order_by: "project_path", exclude_subgroups: true });
    expect(GroupPackagesQuery.safeParse({ id: "1", package_type: "terraform_module" }).success).toBe(false);
    expect(ProjectPackagesQuery.parse({ id: "1", include_versionless: "false" }).include_versionless).toBe(false);
  });

  test("keyset cursors round-trip; junk is NaN", () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(decodeCursor(undefined)).toBeUndefined();
    expect(decodeCursor("garbage!")).toBeNaN();
    expect(decodeCursor(Buffer.from(JSON.stringify({ id: "-3" })).toString("base64"))).toBeNaN();
  });
});
