import type { Caller } from "./meta";
import { deployTokenReaches } from "./meta";

const user: Caller = { id: 2, username: "alice", admin: false };
const projectToken: Caller = { id: 0, username: "svc+deploy-token-1", admin: false, deployToken: { id: 1, projectId: 5, groupId: null, scopes: ["read_repository"] } };
const groupToken: Caller = { id: 0, username: "svc+deploy-token-2", admin: false, deployToken: { id: 2, projectId: null, groupId: 10, scopes: ["read_repository"] } };

describe("deployTokenReaches", () => {
  test("callers that are no deploy token are not limited here", () => {
    expect(deployTokenReaches(user, { projectId: 99, groupIds: [] })).toBe(true);
    expect(deployTokenReaches(null, { groupIds: [1] })).toBe(true);
  });

  test("a project token reaches its project only", () => {
    expect(deployTokenReaches(projectToken, { projectId: 5, groupIds: [10] })).toBe(true);
    expect(deployTokenReaches(projectToken, { projectId: 6, groupIds: [10] })).toBe(false);
    expect(deployTokenReaches(projectToken, { groupIds: [10] })).toBe(false);
  });

  test("a group token reaches its group, its subgroups and their projects, nothing above or beside", () => {
    expect(deployTokenReaches(groupToken, { groupIds: [10] })).toBe(true);
    expect(deployTokenReaches(groupToken, { groupIds: [10, 11] })).toBe(true); // subgroup 11
    expect(deployTokenReaches(groupToken, { projectId: 5, groupIds: [10, 11] })).toBe(true);
    expect(deployTokenReaches(groupToken, { groupIds: [1] })).toBe(false); // the parent of nothing of ours
    expect(deployTokenReaches(groupToken, { projectId: 6, groupIds: [12] })).toBe(false);
  });
});
