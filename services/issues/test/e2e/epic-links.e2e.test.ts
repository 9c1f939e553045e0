import { addMember, apiClient, assertStatus as ok, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Child epics (GitLab Ultimate's epic links, /groups/:id/epics/:epic_iid/epics): list, assign an
 * existing epic by global id, create a new child, unassign. Children of other hierarchies, cycles
 * and hidden epics are refused with GitLab's answers.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("epic-links");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

async function world() {
  const group = ok(await root.post("/groups", { json: { name: "Platform", path: "platform", visibility: "private" } }), 201, "group").body;
  const sub = ok(await root.post("/groups", { json: { name: "Billing", path: "billing", parent_id: group.id } }), 201, "subgroup").body;
  const other = ok(await root.post("/groups", { json: { name: "Mobile", path: "mobile", visibility: "private" } }), 201, "other group").body;
  const [planner, guest] = await Promise.all([createUser(app, "planner"), createUser(app, "guest")]);
  await addMember(app, "groups", group.id, planner.id, 20);
  await addMember(app, "groups", group.id, guest.id, 10);
  const epic = async (groupId: number, title: string, extra: Record<string, unknown> = {}) =>
    ok(await root.post(`/groups/${groupId}/epics`, { json: { title, ...extra } }), 201, title).body as { id: number; iid: number };
  const roadmap = await epic(group.id, "Roadmap");
  const invoices = await epic(group.id, "Invoices");
  const taxes = await epic(sub.id, "Taxes");
  const foreign = await epic(other.id, "Foreign");
  return { group, sub, planner, guest, roadmap, invoices, taxes, foreign, E: `/groups/${group.id}/epics` };
}

test("children are assigned by global id, listed, created and unassigned", async () => {
  const { group, sub, planner, roadmap, invoices, taxes, E } = await world();
  const api = planner.api;
  expect(ok(await api.get(`${E}/${roadmap.iid}/epics`), 200, "no children").body).toEqual([]);

  const assigned = await api.post(`${E}/${roadmap.iid}/epics/${invoices.id}`);
  expect(assigned.status).toBe(201);
  expect(assigned.body).toMatchObject({ id: invoices.id, parent_id: roadmap.id, parent_iid: roadmap.iid, group_id: group.id });
  // An epic of a subgroup may be a child; its reference names its group.
  const subChild = ok(await api.post(`${E}/${roadmap.iid}/epics/${taxes.id}`), 201, "subgroup child").body;
  expect(subChild).toMatchObject({ parent_id: roadmap.id, references: { relative: `${sub.full_path}&1` } });

  const created = await api.post(`${E}/${roadmap.iid}/epics`, { json: { title: "Refunds" } });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({
    id: expect.any(Number),
    // Taxes counts in its own group: Refunds is the Platform group's third.
    iid: 3,
    title: "Refunds",
    group_id: group.id,
    parent_id: roadmap.id,
    has_children: false,
    has_issues: false,
    reference: "&3",
    url: "http://collab.test/groups/platform/-/epics/3",
    relation_url: `http://collab.test/groups/platform/-/epics/${roadmap.iid}/links/${created.body.id}`,
  });

  const children = ok(await api.get(`${E}/${roadmap.iid}/epics`), 200, "children").body as { title: string }[];
  expect(children.map((c) => c.title)).toEqual(["Invoices", "Taxes", "Refunds"]);

  const removed = await api.delete(`${E}/${roadmap.iid}/epics/${invoices.id}`);
  expect([removed.status, removed.body.parent_id, removed.body.title]).toEqual([200, null, "Invoices"]);
  expect((ok(await api.get(`${E}/${roadmap.iid}/epics`), 200, "children").body as { title: string }[]).map((c) => c.title)).toEqual(["Taxes", "Refunds"]);
  // Not (or no longer) a child of this epic: nothing to unassign.
  expect((await api.delete(`${E}/${roadmap.iid}/epics/${invoices.id}`)).status).toBe(404);
});

test("refusals: other hierarchies, cycles, repeats, guests and anonymous callers", async () => {
  const { guest, planner, roadmap, invoices, foreign, E } = await world();
  const api = planner.api;
  const NO_MATCH = { message: "No matching epic found. Make sure that you are adding a valid epic URL." };
  expect(await api.post(`${E}/${roadmap.iid}/epics/${foreign.id}`).then((r) => [r.status, r.body])).toEqual([404, NO_MATCH]);
  expect(await api.post(`${E}/${roadmap.iid}/epics/999999`).then((r) => [r.status, r.body])).toEqual([404, NO_MATCH]);

  ok(await api.post(`${E}/${roadmap.iid}/epics/${invoices.id}`), 201, "assign");
  expect(await api.post(`${E}/${roadmap.iid}/epics/${invoices.id}`).then((r) => r.status)).toBe(409);
  // Roadmap under its own child would be a cycle; an epic under itself too.
  expect(await api.post(`${E}/${invoices.iid}/epics/${roadmap.id}`).then((r) => r.status)).toBe(409);
  expect(await api.post(`${E}/${roadmap.iid}/epics/${roadmap.id}`).then((r) => r.status)).toBe(409);
  expect((await root.get(`${E}/${roadmap.iid}`)).body.parent_id).toBeNull();

  // Guests read children but may not change them; anonymous callers are asked to sign in.
  expect((await guest.api.get(`${E}/${roadmap.iid}/epics`)).status).toBe(200);
  expect((await guest.api.post(`${E}/${roadmap.iid}/epics`, { json: { title: "Sneaky" } })).status).toBe(403);
  expect((await guest.api.delete(`${E}/${roadmap.iid}/epics/${invoices.id}`)).status).toBe(403);
  expect((await apiClient(app.url).get(`${E}/${roadmap.iid}/epics`)).status).toBe(401);
  expect((ok(await api.get(`${E}/${roadmap.iid}/epics`), 200, "children").body as unknown[]).length).toBe(1);
});

test("a confidential child is listed only for those who may read it", async () => {
  const { guest, planner, roadmap, group, E } = await world();
  const secret = ok(await planner.api.post(`${E}/${roadmap.iid}/epics`, { json: { title: "Secret", confidential: true } }), 201, "child").body;
  expect(secret.parent_id).toBe(roadmap.id);
  expect((ok(await planner.api.get(`${E}/${roadmap.iid}/epics`), 200, "planner").body as { title: string }[]).map((c) => c.title)).toEqual(["Secret"]);
  expect(ok(await guest.api.get(`${E}/${roadmap.iid}/epics`), 200, "guest").body).toEqual([]);
  expect((await guest.api.get(`/groups/${group.id}/epics/${secret.iid}`)).status).toBe(403);
});
