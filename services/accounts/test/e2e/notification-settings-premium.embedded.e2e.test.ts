import { Accounts } from "@collab/accounts-contract";
import { call } from "@collab/core";
import { assertStatus as ok, createGroup, createUser, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";

/**
 * Notification settings below Ultimate: `new_epic` is an Ultimate event, so Premium neither shows
 * it nor takes it (the param is dropped like any undeclared one). The tier is read from
 * LICENSE_TIER when the services are created, so this file boots its own app.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startAppOnTier("notification-settings-premium", "premium");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

test("custom settings have no new_epic on Premium", async () => {
  const alice = await createUser(app, "alice");
  const group = await createGroup(alice.api, "Team", "team");
  for (const path of ["/notification_settings", `/groups/${group.id}/notification_settings`]) {
    const res = ok(await alice.api.put(path, { json: { level: "custom", new_epic: true, new_note: true } }), 200, `PUT ${path}`);
    expect([path, res.body.events.new_note, "new_epic" in res.body.events]).toEqual([path, true, false]);
    expect(Object.keys(res.body.events)).toHaveLength(17);
    expect((await alice.api.get(path)).body).toEqual(res.body);
  }
  // Nor do the switches mail features read.
  const [mine] = await call(app.broker, Accounts.notifications.effectiveLevel, { user_ids: [alice.id], group_ids: [group.id] });
  expect(mine.events).not.toHaveProperty("new_epic");
});
