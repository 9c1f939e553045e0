import { canAdminSnippet, canCreateProjectSnippet, canReadSnippet } from "./policy";

const user = (id: number, extra: { admin?: boolean; external?: boolean } = {}) => ({ id, username: `u${id}`, admin: extra.admin ?? false, external: extra.external });
const snippet = (visibility: string, projectId: number | null = 1) => ({ authorId: 1, visibility, projectId });

describe("snippet policies", () => {
  test("reading: public to all, internal to signed-in non-external users, private to the author and members", () => {
    const who = { anonymous: { caller: null, role: 0 }, outsider: { caller: user(2), role: 0 }, external: { caller: user(3, { external: true }), role: 0 }, guest: { caller: user(4), role: 10 }, author: { caller: user(1), role: 0 }, admin: { caller: user(9, { admin: true }), role: 60 } };
    const table = Object.fromEntries(
      Object.entries(who).map(([name, a]) => [name, ["public", "internal", "private"].filter((v) => canReadSnippet(a, snippet(v)))]),
    );
    expect(table).toEqual({
      anonymous: ["public"],
      outsider: ["public", "internal"],
      external: ["public"],
      guest: ["public", "internal", "private"],
      author: ["public", "internal", "private"],
      admin: ["public", "internal", "private"],
    });
    // No project membership reaches a personal snippet.
    expect(canReadSnippet({ caller: user(4), role: 10 }, snippet("private", null))).toBe(false);
  });

  test("creating project snippets: Reporters and up", () => {
    expect([0, 10, 20, 30, 40, 50].map((role) => canCreateProjectSnippet({ caller: user(2), role }))).toEqual([false, false, true, true, true, true]);
    expect(canCreateProjectSnippet({ caller: null, role: 0 })).toBe(false);
  });

  test("changing: the author (a Reporter on a project's), Maintainers, administrators", () => {
    const s = snippet("public");
    expect(canAdminSnippet({ caller: user(1), role: 20 }, s)).toBe(true);
    expect(canAdminSnippet({ caller: user(1), role: 10 }, s)).toBe(false);
    expect(canAdminSnippet({ caller: user(2), role: 30 }, s)).toBe(false);
    expect(canAdminSnippet({ caller: user(2), role: 40 }, s)).toBe(true);
    expect(canAdminSnippet({ caller: user(2, { admin: true }), role: 60 }, s)).toBe(true);
    expect(canAdminSnippet({ caller: user(1), role: 0 }, snippet("private", null))).toBe(true);
    expect(canAdminSnippet({ caller: user(2), role: 0 }, snippet("public", null))).toBe(false);
  });
});
