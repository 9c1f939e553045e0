import { CreatePersonalSnippetParams, CreateProjectSnippetParams, UpdatePersonalSnippetParams } from "@collab/snippets-contract";

const issues = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) => (r.success ? [] : r.error!.issues.map((i) => [i.path.join("."), i.message]));

describe("snippet params", () => {
  test("a create takes files[] or the single file_name + content, not both, not neither", () => {
    const files = [{ file_path: "a.rb", content: "puts 1" }];
    expect(CreatePersonalSnippetParams.parse({ title: "t", files })).toMatchObject({ visibility: "internal", files });
    expect(CreatePersonalSnippetParams.parse({ title: "t", file_name: "a.rb", content: "x" })).toMatchObject({ file_name: "a.rb", content: "x" });
    expect(issues(CreatePersonalSnippetParams.safeParse({ title: "t", files, content: "x" }))).toEqual([["", "files, content are mutually exclusive"]]);
    expect(issues(CreatePersonalSnippetParams.safeParse({ title: "t" }))).toEqual([["", "files, content are missing, exactly one parameter must be provided"]]);
    expect(issues(CreatePersonalSnippetParams.safeParse({ title: "t", files: [] }))).toEqual([["files", "is empty"]]);
  });

  test("project snippets need their visibility; titles and paths must say something", () => {
    expect(issues(CreateProjectSnippetParams.safeParse({ id: "1", title: "t", content: "x" })).map(([path]) => path)).toEqual(["visibility"]);
    expect(issues(CreatePersonalSnippetParams.safeParse({ title: "  ", content: "x" }))).toEqual([["title", "is empty"]]);
    for (const file_path of ["", "../etc/passwd", "/abs", "a/../../b"])
      expect([file_path, CreatePersonalSnippetParams.safeParse({ title: "t", files: [{ file_path, content: "x" }] }).success]).toEqual([file_path, false]);
  });

  test("an update names at least one change, and each file action what it needs", () => {
    expect(issues(UpdatePersonalSnippetParams.safeParse({ id: 1 }))[0][1]).toMatch(/at least one parameter must be provided/);
    expect(UpdatePersonalSnippetParams.parse({ id: "4", title: "x" })).toEqual({ id: 4, title: "x" });
    expect(issues(UpdatePersonalSnippetParams.safeParse({ id: 1, files: [{ action: "move", file_path: "b" }] }))).toEqual([["files.0.previous_path", "is missing"]]);
    expect(issues(UpdatePersonalSnippetParams.safeParse({ id: 1, files: [{ action: "create", file_path: "b" }] }))).toEqual([["files.0.content", "is missing"]]);
    expect(issues(UpdatePersonalSnippetParams.safeParse({ id: 1, files: [{ action: "rename", file_path: "b" }] })).map(([path]) => path)).toEqual(["files.0.action"]);
  });
});
