import { apiClient, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";

/**
 * Members on the other licence tiers (LICENSE_TIER is read at start, so each tier is its own app
 * in this process: embedded only). Premium: Guests take seats, member_role_id is not a param.
 * Free: no billable members, no seats, no Minimal Access, the state filter is not a param.
 */
const names = (body: { username: string }[]) => body.map((m) => m.username);

describe.each(["premium", "free"] as const)("on the %s tier", (tier) => {
  let app: TestApp;
  let root: ApiClient;
  beforeAll(async () => {
    app = await startAppOnTier(`members-${tier}`, tier);
  });
  afterAll(() => app.stop());
  beforeEach(async () => {
    await app.reset();
    root = apiClient(app.url, app.rootToken);
  });

  async function group() {
    const [guest, dev, minimal] = [await createUser(app, "guest"), await createUser(app, "dev"), await createUser(app, "minimal")];
    const g = (await root.post("/groups", { json: { name: "Corp", path: "corp" } })).body;
    await root.post(`/groups/${g.id}/members`, { json: { user_id: guest.id, access_level: 10 } });
    await root.post(`/groups/${g.id}/members`, { json: { user_id: dev.id, access_level: 30 } });
    const min = await root.post(`/groups/${g.id}/members`, { json: { user_id: minimal.id, access_level: 5 } });
    return { g, guest, dev, minimal, min };
  }

  test("billable members, seats and Minimal Access", async () => {
    const { g, min } = await group();
    const billable = await root.get(`/groups/${g.id}/billable_members`);
    const seats = (await root.get(`/groups/${g.id}/members`, { query: { show_seat_info: true } })).body;
    const seat = Object.fromEntries(seats.map((m: { username: string; is_using_seat: boolean }) => [m.username, m.is_using_seat]));
    if (tier === "premium") {
      expect(min.status).toBe(201);
      expect(names(billable.body)).toEqual(["root", "guest", "dev"]);
      expect(seat).toEqual({ root: true, guest: true, dev: true, minimal: true });
    } else {
      expect(min.body).toEqual({ message: { access_level: ["is not included in the list"] } });
      expect(billable).toMatchObject({ status: 404, body: { error: "404 Not Found" } });
      expect(seat).toEqual({ root: false, guest: false, dev: false });
    }
  });

  test("member_role_id is Ultimate's; state is ignored on Free", async () => {
    const { g, dev } = await group();
    const edited = await root.put(`/groups/${g.id}/members/${dev.id}`, { json: { access_level: 20, member_role_id: 3 } });
    expect(edited.status).toBe(200);
    expect(edited.body).not.toHaveProperty("member_role");
    const awaiting = (await root.get(`/groups/${g.id}/members/all`, { query: { state: "awaiting" } })).body;
    expect(names(awaiting)).toEqual(tier === "free" ? ["root", "guest", "dev"] : []);
  });

  test("enable_member_promotion_management is an Ultimate setting: nothing is queued here", async () => {
    const owner = await createUser(app, "owner");
    const newbie = await createUser(app, "newbie");
    const g = (await owner.api.post("/groups", { json: { name: "Team", path: "team" } })).body;
    await root.put("/application/settings", { json: { enable_member_promotion_management: true } });
    expect((await owner.api.post(`/groups/${g.id}/invitations`, { json: { user_id: newbie.id, access_level: 30 } })).body).toEqual({ status: "success" });
  });
});
