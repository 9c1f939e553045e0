import type { NoteRow } from "@collab/notes";
import { presentCommitNote } from "./commit-note.entity";

const author = { id: 3, username: "ann", name: "Ann", state: "active", avatar_url: null, web_url: "w" };
const users = new Map([[3, author]]);
const at = new Date("2026-01-02T03:04:05.000Z");
const note = (n: Partial<NoteRow>) => ({ body: "b", authorId: 3, createdAt: at, type: null, position: null, ...n }) as NoteRow;
const refs = { base_sha: "a", start_sha: "a", head_sha: "b", position_type: "text" };

test("a comment: GitLab's CommitNote without a file or line", () => {
  expect(presentCommitNote(note({}), users)).toEqual({ note: "b", path: null, line: null, line_type: null, author, created_at: "2026-01-02T03:04:05.000Z" });
});

test("a diff note names its file and line: the new side, else the old one", () => {
  expect(presentCommitNote(note({ type: "DiffNote", position: { ...refs, new_path: "a.rb", new_line: 4, old_line: 3 } }), users)).toMatchObject({ path: "a.rb", line: 4, line_type: "new" });
  expect(presentCommitNote(note({ type: "DiffNote", position: { ...refs, old_path: "b.rb", old_line: 7 } }), users)).toMatchObject({ path: "b.rb", line: 7, line_type: "old" });
  expect(presentCommitNote(note({ type: "DiffNote", position: { ...refs, position_type: "file", new_path: "c.png" } }), users)).toMatchObject({ path: "c.png", line: null, line_type: null });
});
