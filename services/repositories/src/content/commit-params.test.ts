import { checkCommitRequest } from "./commit-params";

const body = (over: Record<string, unknown> = {}) => ({ branch: "main", commit_message: "Change", actions: [{ action: "create", file_path: "a.txt", content: "a" }], ...over });
const refusal = (p: Record<string, unknown>) => {
  try {
    checkCommitRequest(p);
  } catch (e) {
    return (e as { data: { body: { message: string } } }).data.body.message;
  }
  return "accepted";
};

describe("checkCommitRequest", () => {
  it("answers the branch, message and actions with GitLab's defaults (text encoding)", () => {
    expect(checkCommitRequest(body())).toEqual({ branch: "main", commit_message: "Change", actions: [{ action: "create", file_path: "a.txt", content: "a", encoding: "text" }] });
    const chmod = checkCommitRequest(body({ actions: [{ action: "chmod", file_path: "run.sh", execute_filemode: "true" }] }));
    expect(chmod.actions[0]).toMatchObject({ action: "chmod", execute_filemode: true });
  });

  it("refuses with GitLab's messages, first the request then each action in order", () => {
    expect(refusal(body({ branch: " " }))).toBe("400 Bad request - branch is required");
    expect(refusal(body({ commit_message: undefined }))).toBe("400 Bad request - commit_message is required");
    expect(refusal(body({ actions: [] }))).toBe("400 Bad request - actions is required");
    expect(refusal(body({ start_branch: "a", start_sha: "b" }))).toBe("400 Bad request - start_branch, start_sha are mutually exclusive");
    const second = (a: Record<string, unknown>) => refusal(body({ actions: [{ action: "delete", file_path: "x" }, a] }));
    expect(second({ file_path: "x" })).toBe("400 Bad request - actions[1][action] is required");
    expect(second({ action: "create" })).toBe("400 Bad request - actions[1][file_path] is required");
    expect(second({ action: "copy", file_path: "x" })).toBe("400 Bad request - actions[1][action] must be one of: create, update, move, delete, chmod");
    expect(second({ action: "create", file_path: "x", encoding: "hex" })).toBe("400 Bad request - actions[1][encoding] must be text or base64");
    expect(second({ action: "update", file_path: "x" })).toBe("400 Bad request - actions[1][content] is required for update action");
    expect(second({ action: "move", file_path: "x" })).toBe("400 Bad request - actions[1][previous_path] is required for move action");
    expect(second({ action: "chmod", file_path: "x" })).toBe("400 Bad request - actions[1][execute_filemode] is required for chmod action");
    expect(second({ action: "chmod", file_path: "x", execute_filemode: "maybe" })).toBe("400 Bad request - actions[1][execute_filemode] must be a boolean");
  });
});
