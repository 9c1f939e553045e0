import type { LoadedCommit } from "./commit-notes.kind";
import { commitNotes } from "./commit-notes.kind";

const sha = "b".repeat(40);
const loaded = (parentIds: string[]) => ({ noteable: { commitId: sha, parentIds } }) as unknown as LoadedCommit;
const position = (base: string, head = sha) => ({ base_sha: base, start_sha: base, head_sha: head, position_type: "text" as const });

test("a diff note's position must name the commit's own diff refs (parent to commit)", () => {
  const check = (l: LoadedCommit, p: ReturnType<typeof position>) => commitNotes.checkPosition!(l, p, {} as never);
  expect(check(loaded(["a".repeat(40)]), position("a".repeat(40)))).toEqual([]);
  expect(check(loaded(["a".repeat(40)]), position("c".repeat(40)))).toEqual([["commit_id", "does not match the diff refs"]]);
  expect(check(loaded(["a".repeat(40)]), position("a".repeat(40), "a".repeat(40)))).toEqual([["commit_id", "does not match the diff refs"]]);
  // A root commit's diff starts from git's blank sha.
  expect(check(loaded([]), position("0".repeat(40)))).toEqual([]);
});
