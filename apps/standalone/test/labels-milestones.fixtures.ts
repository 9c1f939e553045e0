import { addMember, apiClient, createGroup, createProject, createUser, type TestApp } from "@collab/testing";

/**
 * The usual world of these tests, all private:
 *   platform (group) ─ backend (subgroup) ─ api (project), plus a personal-style sibling project "other".
 * Members: reporter (20), planner (15) and guest (10) on the project; groupReporter (20) and
 * groupGuest (10) on the top group; outsider belongs nowhere.
 */
export async function createWorld(app: TestApp) {
  const root = apiClient(app.url, app.rootToken);
  const group = await createGroup(root, "Platform", "platform", { visibility: "private" });
  const subgroup = await createGroup(root, "Backend", "backend", { parent_id: group.id, visibility: "private" });
  const project = await createProject(root, { name: "api", namespace_id: subgroup.id, visibility: "private" });
  const other = await createProject(root, { name: "other", namespace_id: group.id, visibility: "private" });
  const [reporter, planner, guest, groupReporter, groupGuest, outsider] = await Promise.all(
    ["reporter", "planner", "guest", "greporter", "gguest", "outsider"].map((u) => createUser(app, u)),
  );
  await addMember(app, "projects", project.id, reporter.id, 20);
  await addMember(app, "projects", project.id, planner.id, 15);
  await addMember(app, "projects", project.id, guest.id, 10);
  await addMember(app, "groups", group.id, groupReporter.id, 20);
  await addMember(app, "groups", group.id, groupGuest.id, 10);
  return { root, anonymous: apiClient(app.url), group, subgroup, project, other, reporter, planner, guest, groupReporter, groupGuest, outsider };
}
export type World = Awaited<ReturnType<typeof createWorld>>;
