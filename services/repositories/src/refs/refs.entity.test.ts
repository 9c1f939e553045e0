import type { CommitData } from "@collab/git";
import { presentBranch, presentTag, type BranchPage } from "./refs.entity";

const commit = (id: string): CommitData => ({
  id,
  short_id: id.slice(0, 8),
  title: "Add totals",
  message: "Add totals\n\nSigned-off-by: A <a@example.com>\n",
  parent_ids: ["b".repeat(40)],
  author_name: "A",
  author_email: "a@example.com",
  authored_date: "2024-05-01T10:00:00+00:00",
  committer_name: "C",
  committer_email: "c@example.com",
  committed_date: "2024-05-01T11:00:00+00:00",
  created_at: "2024-05-01T11:00:00+00:00",
  trailers: { "Signed-off-by": "A <a@example.com>" },
  extended_trailers: { "Signed-off-by": ["A <a@example.com>"] },
});

const HEAD = "a".repeat(40);
const OLD = "c".repeat(40);
const page = (over: Partial<BranchPage> = {}): BranchPage => ({
  projectWebUrl: "http://collab.test/g/p",
  defaultBranch: "main",
  defaultHead: HEAD,
  mergedIntoDefault: new Set(["main", "same", "old"]),
  rules: new Map([["main", { protected: true, push_access_level: 40, merge_access_level: 30 }]]),
  role: 30,
  mayPushCode: true,
  ...over,
});

describe("presentBranch", () => {
  it("is GitLab's Branch entity with its commit and web URLs", () => {
    expect(presentBranch({ name: "main", commit: commit(HEAD) }, page())).toEqual({
      name: "main",
      merged: false,
      protected: true,
      developers_can_push: false,
      developers_can_merge: true,
      can_push: false,
      default: true,
      web_url: "http://collab.test/g/p/-/tree/main",
      commit: {
        id: HEAD,
        short_id: HEAD.slice(0, 8),
        created_at: "2024-05-01T11:00:00+00:00",
        parent_ids: ["b".repeat(40)],
        title: "Add totals",
        message: "Add totals\n\nSigned-off-by: A <a@example.com>\n",
        author_name: "A",
        author_email: "a@example.com",
        authored_date: "2024-05-01T10:00:00+00:00",
        committer_name: "C",
        committer_email: "c@example.com",
        committed_date: "2024-05-01T11:00:00+00:00",
        trailers: { "Signed-off-by": "A <a@example.com>" },
        extended_trailers: { "Signed-off-by": ["A <a@example.com>"] },
        web_url: `http://collab.test/g/p/-/commit/${HEAD}`,
      },
    });
  });

  it("is merged when the default branch contains it without it being the same commit", () => {
    expect(presentBranch({ name: "same", commit: commit(HEAD) }, page()).merged).toBe(false);
    expect(presentBranch({ name: "old", commit: commit(OLD) }, page()).merged).toBe(true);
    expect(presentBranch({ name: "ahead", commit: commit(OLD) }, page()).merged).toBe(false);
    expect(presentBranch({ name: "old", commit: commit(OLD) }, page({ defaultHead: null, mergedIntoDefault: new Set() })).merged).toBe(false);
  });

  it("lets the caller push to an unprotected branch only with push rights, and to a protected one at its level", () => {
    const topic = { name: "topic", commit: commit(OLD) };
    expect(presentBranch(topic, page())).toMatchObject({ protected: false, developers_can_push: false, developers_can_merge: false, can_push: true, default: false });
    expect(presentBranch(topic, page({ mayPushCode: false, role: 60 })).can_push).toBe(false);
    expect(presentBranch({ name: "main", commit: commit(HEAD) }, page({ role: 40 })).can_push).toBe(true);
  });
});

describe("presentTag", () => {
  it("is GitLab's Tag entity: an annotated tag's object and date, a lightweight tag's commit and none", () => {
    const tag = presentTag({ name: "v1", message: "Release", target: OLD, commit: commit(HEAD), created_at: "2024-05-02T00:00:00+00:00" }, "http://collab.test/g/p");
    expect(tag).toEqual({ name: "v1", message: "Release", target: OLD, commit: expect.objectContaining({ id: HEAD, web_url: `http://collab.test/g/p/-/commit/${HEAD}` }), release: null, protected: false, created_at: "2024-05-02T00:00:00+00:00" });
    expect(presentTag({ name: "tree", message: "", target: OLD, commit: null, created_at: null }, "u")).toMatchObject({ commit: null, created_at: null });
  });
});
