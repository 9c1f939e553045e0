import { commitActionsOf } from "./snippet-repository";

describe("commitActionsOf", () => {
  test("maps an update's file actions to git commit actions, in order", () => {
    expect(
      commitActionsOf([
        { action: "create", file_path: "a.txt", content: "a" },
        { action: "update", file_path: "b.txt", content: "b" },
        { action: "move", previous_path: "c.txt", file_path: "d/c.txt" },
        { action: "delete", file_path: "e.txt" },
      ]),
    ).toEqual([
      { action: "create", file_path: "a.txt", content: "a" },
      { action: "update", file_path: "b.txt", content: "b" },
      { action: "move", previous_path: "c.txt", file_path: "d/c.txt" },
      { action: "delete", file_path: "e.txt" },
    ]);
  });

  test("a move without a new path keeps the file where it is, with its new content", () => {
    expect(commitActionsOf([{ action: "move", previous_path: "c.txt", content: "new" }])).toEqual([{ action: "move", previous_path: "c.txt", file_path: "c.txt", content: "new" }]);
  });

  test("an update without content commits nothing", () => {
    expect(commitActionsOf([{ action: "update", file_path: "b.txt" }])).toEqual([]);
  });
});
