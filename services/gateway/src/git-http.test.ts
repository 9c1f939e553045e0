import { matchGitRequest } from "./git-http";

describe("matchGitRequest", () => {
  it("finds the project and endpoint of git's smart HTTP paths, with or without .git, in nested groups", () => {
    expect(matchGitRequest("GET", "/group/project.git/info/refs?service=git-upload-pack")).toEqual({ project: "group/project", endpoint: "info/refs" });
    expect(matchGitRequest("GET", "/group/project/info/refs?service=git-receive-pack")).toEqual({ project: "group/project", endpoint: "info/refs" });
    expect(matchGitRequest("POST", "/a/b/c/my.project.git/git-upload-pack")).toEqual({ project: "a/b/c/my.project", endpoint: "git-upload-pack" });
    expect(matchGitRequest("POST", "/user/p%20x.git/git-receive-pack")).toEqual({ project: "user/p x", endpoint: "git-receive-pack" });
  });

  it("leaves every other request to the API", () => {
    expect(matchGitRequest("POST", "/group/project.git/info/refs")).toBeNull();
    expect(matchGitRequest("GET", "/group/project.git/git-upload-pack")).toBeNull();
    expect(matchGitRequest("GET", "/project.git/info/refs")).toBeNull();
    expect(matchGitRequest("GET", "/api/v4/projects/info/refs")).toBeNull();
    expect(matchGitRequest("GET", "/-/invites/info/refs")).toBeNull();
    expect(matchGitRequest("GET", "/api/v4/projects/1")).toBeNull();
    expect(matchGitRequest("GET", "/group/%ff/info/refs")).toBeNull();
  });
});
