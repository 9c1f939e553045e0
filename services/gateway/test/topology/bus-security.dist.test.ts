import { Accounts } from "@collab/accounts-contract";
import { call as callAction, readPrivateKey, Signer, type CallerAssertion } from "@collab/core";
import { apiClient, createUserAccount, type ApiClient, type TestApp } from "@collab/testing";
import { generateKeyPairSync } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { connect } from "nats";
import { startApp } from "@collab/standalone/test/app";
import { routeAction } from "@collab/standalone/test/route-action";
import { Admin } from "@collab/admin-contract";

/**
 * Distributed pass only: the bus believes no one it cannot verify. NATS takes only its users; a
 * process that got onto the bus anyway (here: this test, with NATS credentials but none of the
 * bus's keys) cannot call any action as anyone, nor broadcast settings; a caller assertion counts
 * only when signed by a gateway key and not expired, and it is what every service behind the
 * first one believes.
 */
let app: TestApp;
let root: ApiClient;
let intruder: ServiceBroker;
const servers = () => process.env.TEST_TRANSPORTER!.replace("nats://", "");
const rootCaller = { id: 1, username: "root", admin: true };

beforeAll(async () => {
  app = await startApp("bus-security");
  // On the bus with NATS credentials, but with moleculer's plain broker: no keys, no signatures.
  intruder = new ServiceBroker({
    nodeID: `intruder-${process.pid}`,
    logger: false,
    transporter: { type: "NATS", options: { servers: [servers()], user: process.env.NATS_USER, pass: process.env.NATS_PASSWORD, maxReconnectAttempts: 0 } },
  });
  await intruder.start();
  await intruder.waitForServices(["namespaces", "issues", "accounts"], 30_000);
});
afterAll(async () => {
  await intruder?.stop();
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** A caller assertion signed with `key` (the gateway's, or any other), as `meta.auth`. */
const signed = (key: string, assertion: Partial<CallerAssertion> & { caller: CallerAssertion["caller"] }) =>
  new Signer(readPrivateKey(key)).sign({ exp: Date.now() + 10_000, ...assertion });
const otherKey = () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "der" }).toString("base64");
const gatewayKey = () => process.env.TEST_CALLER_SIGNING_KEY!;
const refusal = (err: unknown) => ({ code: (err as { code?: number }).code, type: (err as { type?: string }).type });

const projectCount = async () => Number((await root.get("/projects", { query: { per_page: 1 } })).headers.get("x-total"));

test("NATS refuses a client without credentials, and one with a wrong password", async () => {
  await expect(connect({ servers: servers() })).rejects.toThrow(/Authorization Violation/i);
  await expect(connect({ servers: servers(), user: process.env.NATS_USER, pass: "not-the-password" })).rejects.toThrow(/Authorization Violation/i);
});

test("an action called without the gateway's signature, with another key's, or expired, is refused, and nothing changes", async () => {
  const before = await projectCount();
  const call = (meta: Record<string, unknown>) => intruder.call(routeAction("POST", "/projects"), { name: "Forged" }, { meta }).then(() => "created", refusal);
  const refused = { code: 401, type: "UNVERIFIED_CALLER" };
  expect(await call({ caller: rootCaller })).toEqual(refused);
  expect(await call({ caller: rootCaller, auth: signed(otherKey(), { caller: rootCaller }) })).toEqual(refused);
  expect(await call({ caller: rootCaller, auth: signed(gatewayKey(), { caller: rootCaller, exp: Date.now() - 120_000 }) })).toEqual(refused);
  // A valid signature over another payload (the caller swapped in): refused as well.
  const [kid, , sig] = signed(gatewayKey(), { caller: { id: 2, username: "bob", admin: false } }).split(".");
  const swapped = `${kid}.${Buffer.from(JSON.stringify({ caller: rootCaller, exp: Date.now() + 10_000 })).toString("base64url")}.${sig}`;
  expect(await call({ caller: rootCaller, auth: swapped })).toEqual(refused);
  // A bus-only action too: the gateway's token check.
  expect(await callAction(intruder, Accounts.authenticate, { token: app.rootToken }).then(() => "answered", refusal)).toEqual(refused);
  expect(await projectCount()).toBe(before);
});

test("a call made on a user's behalf carries the signed caller to the next service, which believes it over meta.caller", async () => {
  const project = await root.post("/projects", { json: { name: "Signed" } });
  expect(project.status).toBe(201);
  const bob = await createUserAccount(app, "bob");
  const asRoot = signed(gatewayKey(), { caller: rootCaller });
  const asBob = signed(gatewayKey(), { caller: { id: bob.id, username: "bob", admin: false } });

  // issues.create asks namespaces about the project on the caller's behalf: for root both agree.
  const created = (await intruder.call(routeAction("POST", "/projects/:id/issues"), { id: String(project.body.id), title: "Signed across two services" }, { meta: { auth: asRoot } })) as { iid: number; author: { username: string } };
  expect(created.author.username).toBe("root");
  expect((await root.get(`/projects/${project.body.id}/issues/${created.iid}`)).status).toBe(200);

  // Signed for bob (no member of the private project), meta.caller claiming root: both services
  // act for bob, the signed one; the project is not found for him.
  const forBob = await intruder
    .call(routeAction("POST", "/projects/:id/issues"), { id: String(project.body.id), title: "Not for bob" }, { meta: { auth: asBob, caller: rootCaller } })
    .then(() => "created", (err) => (err as { code?: number }).code);
  expect(forBob).toBe(404);
  expect((await root.get(`/projects/${project.body.id}/issues`)).body).toHaveLength(1);
});

test("a settings broadcast without a signed sender is dropped by every process", async () => {
  const forged = { version: Date.now() + 1e9, settings: { signup_enabled: false } };
  await intruder.broadcast(Admin.events.settingsChanged.name, forged);
  await app.broker.ping(); // every node has had the broadcast by now
  const signUp = await fetch(`${app.url}/users`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user: { name: "Carol", username: "carol", email: "carol@example.com", password: "Sign-up-is-open-9!" } }),
  });
  expect(signUp.status).toBe(201);
});
