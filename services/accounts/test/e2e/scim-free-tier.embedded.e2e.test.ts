import { apiClient, createGroup, type ApiClient, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";

/**
 * Group SAML SSO and SCIM are Premium features: on the Free tier their routes are not mounted, as
 * in GitLab's community edition (the catch-all 404), under /api/v4 and outside it alike. The tier
 * is read when the services are created, so this file boots its own app.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startAppOnTier("scim-free-tier", "free");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const NOT_MOUNTED = { status: 404, body: { error: "404 Not Found" } };

test("the SAML settings, SCIM token, SCIM identities and SCIM API answer the catch-all 404", async () => {
  const group = await createGroup(root, "Acme", "acme");
  expect(await root.get(`/groups/${group.id}/saml`)).toMatchObject(NOT_MOUNTED);
  expect(await root.put(`/groups/${group.id}/saml`, { json: { enabled: true } })).toMatchObject(NOT_MOUNTED);
  expect(await root.post(`/groups/${group.id}/scim/token`)).toMatchObject(NOT_MOUNTED);
  expect(await root.get(`/groups/${group.id}/scim/identities`)).toMatchObject(NOT_MOUNTED);
  expect(await root.delete(`/groups/${group.id}/scim/uid`)).toMatchObject(NOT_MOUNTED);
  const res = await fetch(`${app.url}/api/scim/v2/groups/acme/Users`, { headers: { Authorization: "Bearer glsoat-anything-at-all-0000" } });
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ error: "404 Not Found" });
  expect((await root.get(`/groups/${group.id}/members`)).body[0]).toMatchObject({ group_saml_identity: null });
});
