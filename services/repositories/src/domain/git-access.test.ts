import type { Caller } from "@collab/core";
import { downloadDenial, GitMessages, pushDenial, type ProjectForGit } from "./git-access";

const user: Caller = { id: 2, username: "alice", admin: false };
const project = (over: Partial<ProjectForGit> = {}): ProjectForGit => ({ visibility: "private", archived: false, repository_access_level: "enabled", repository_read_only: false, ...over });

describe("git access", () => {
  it("lets Reporters read a private project, and anyone who sees a public one", () => {
    expect(downloadDenial(user, project(), 20)).toBeNull();
    expect(downloadDenial(user, project(), 10)).toBe(GitMessages.download);
    expect(downloadDenial(null, project({ visibility: "public" }), 0)).toBeNull();
    expect(downloadDenial(null, project({ visibility: "public", repository_access_level: "private" }), 0)).toBe(GitMessages.download);
    expect(downloadDenial(user, project({ repository_access_level: "disabled" }), 60)).toBe(GitMessages.download);
  });

  it("lets deploy tokens read with read_repository only", () => {
    const token = (scopes: string[]): Caller => ({ id: 0, username: "deploy", admin: false, deployToken: { id: 1, projectId: 1, groupId: null, scopes } });
    expect(downloadDenial(token(["read_repository"]), project(), 0)).toBeNull();
    expect(downloadDenial(token(["read_registry"]), project(), 0)).toBe(GitMessages.download);
    expect(pushDenial(token(["read_repository"]), project(), 0)).toBe(GitMessages.push);
  });

  it("lets Developers push, unless archived or read-only", () => {
    expect(pushDenial(user, project(), 30)).toBeNull();
    expect(pushDenial(user, project(), 20)).toBe(GitMessages.push);
    expect(pushDenial(user, project({ archived: true }), 40)).toBe(GitMessages.archived);
    expect(pushDenial(user, project({ repository_read_only: true }), 40)).toBe(GitMessages.readOnly);
    expect(pushDenial(null, project({ visibility: "public" }), 0)).toBe(GitMessages.push);
    expect(pushDenial({ ...user, job: { id: 1, projectId: 1, pipelineId: 1 } }, project(), 40)).toBe(GitMessages.push);
  });
});
