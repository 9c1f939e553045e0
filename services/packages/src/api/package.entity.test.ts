import type { PackageRow } from "../db/schema";
import { presentGroupPackage, presentPackage, type PackageContext } from "./package.entity";

const row = (p: Partial<PackageRow>): PackageRow => ({
  id: 7,
  projectId: 3,
  name: "tool",
  version: "1.0.0",
  packageType: "generic",
  status: "default",
  creatorId: 1,
  lastDownloadedAt: null,
  createdAt: new Date("2024-05-01T10:20:30.123Z"),
  updatedAt: new Date("2024-05-01T10:20:30.123Z"),
  ...p,
});
const ctx = (p: Partial<PackageContext> = {}): PackageContext => ({
  baseUrl: "https://collab.example",
  projectPath: () => "grp/proj",
  canDelete: () => false,
  tags: new Map(),
  pipelines: new Map(),
  ...p,
});

describe("package presenter", () => {
  test("links: web_path for default and deprecated only, delete_api_path for who may delete", () => {
    expect(presentPackage(row({}), ctx())._links).toEqual({ web_path: "/grp/proj/-/packages/7" });
    expect(presentPackage(row({ status: "error" }), ctx())._links).toEqual({});
    expect(presentPackage(row({ status: "deprecated" }), ctx({ canDelete: () => true }))._links).toEqual({
      web_path: "/grp/proj/-/packages/7",
      delete_api_path: "https://collab.example/api/v4/projects/3/packages/7",
    });
  });

  test("pipelines only when there are some; group lists add the project", () => {
    const plain = presentPackage(row({}), ctx());
    expect(plain).not.toHaveProperty("pipelines");
    expect(plain).not.toHaveProperty("project_id");
    expect(plain.created_at).toBe("2024-05-01T10:20:30.123Z");
    const ref = { id: 9, iid: 1, project_id: 3, sha: "a", ref: "main", status: "success", source: "push", created_at: "x", updated_at: "y", web_url: "u", user: null };
    const withCi = presentGroupPackage(row({}), ctx({ pipelines: new Map([[7, [ref]]]) }));
    expect(withCi).toMatchObject({ pipeline: ref, pipelines: [ref], project_id: 3, project_path: "grp/proj" });
  });
});
