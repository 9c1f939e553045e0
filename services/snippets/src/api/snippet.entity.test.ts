import { presentSnippet } from "./snippet.entity";

const at = new Date("2024-05-01T10:00:00Z");
const row = (projectId: number | null) => ({ id: 7, projectId, authorId: 3, title: "T", description: null, visibility: "internal", repositoryStorage: "default", repositoryReadOnly: false, createdAt: at, updatedAt: at });
const author = { id: 3, username: "ann", name: "Ann", state: "active", locked: false, avatar_url: null, web_url: "https://gl.example/ann" };
const context = (admin: boolean) => ({
  baseUrl: "https://gl.example:8443",
  users: new Map([[3, author]]),
  projects: new Map([[5, { web_url: "https://gl.example:8443/grp/app", path_with_namespace: "grp/app" }]]),
  admin,
});

describe("presentSnippet", () => {
  test("a project snippet's URLs are under the project's -/snippets", () => {
    const s = presentSnippet(row(5), [{ path: "dir/a b.rb", content: "x" }], context(false));
    expect(s).toMatchObject({
      project_id: 5,
      web_url: "https://gl.example:8443/grp/app/-/snippets/7",
      raw_url: "https://gl.example:8443/grp/app/-/snippets/7/raw",
      file_name: "dir/a b.rb",
      files: [{ path: "dir/a b.rb", raw_url: "https://gl.example:8443/grp/app/-/snippets/7/raw/main/dir/a%20b.rb" }],
      ssh_url_to_repo: "git@gl.example:grp/app/snippets/7.git",
      http_url_to_repo: "https://gl.example:8443/grp/app/snippets/7.git",
      author,
      created_at: "2024-05-01T10:00:00.000Z",
    });
    expect(s).not.toHaveProperty("repository_storage");
  });

  test("a personal snippet's are the instance's; administrators see the storage", () => {
    expect(presentSnippet(row(null), [], context(true))).toMatchObject({
      project_id: null,
      web_url: "https://gl.example:8443/-/snippets/7",
      http_url_to_repo: "https://gl.example:8443/snippets/7.git",
      file_name: null,
      files: [],
      repository_storage: "default",
    });
  });
});
