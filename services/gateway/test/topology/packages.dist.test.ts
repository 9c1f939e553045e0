import { apiClient, assertStatus, createProject, type TestApp } from "@collab/testing";
import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { startApp } from "@collab/standalone/test/app";
import { routeAction } from "@collab/standalone/test/route-action";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { topologyControl } = require("../../../../scripts/topology.js") as {
  topologyControl(dir: string): { startNode(service: string, replica: number): Promise<number>; stopPid(pid: number): Promise<void> };
};

/**
 * Distributed pass only: package files live in PostgreSQL, not on a replica. A file uploaded
 * through one `packages` replica downloads through the other (each call pinned to a node), and
 * through the gateway once the uploading replica is stopped.
 */
let app: TestApp;
const control = () => topologyControl(process.env.TEST_TOPOLOGY_LOG_DIR!);
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

interface TopologyNode {
  service: string;
  replica: number;
  pid: number;
}

beforeAll(async () => {
  app = await startApp("packages-dist");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

test("a file uploaded through one packages replica downloads through the other, and after the first stops", async () => {
  const nodes: TopologyNode[] = JSON.parse(process.env.TEST_TOPOLOGY_NODES ?? "[]");
  const [first, second] = nodes.filter((n) => n.service === "packages");
  expect(second).toBeDefined();
  const root = apiClient(app.url, app.rootToken);
  const me = assertStatus(await root.get("/user"), 200, "root").body;
  const project = await createProject(root, { name: "dist-pkgs", visibility: "private" });
  const meta = app.asCaller({ id: me.id, username: me.username, admin: true });
  const bytes = randomBytes(3 * 1024 * 1024 + 777);

  // Upload pinned to the first replica: the body travels as stream chunks over NATS.
  const stream = Readable.from((function* () {
    for (let i = 0; i < bytes.length; i += 64 * 1024) yield bytes.subarray(i, i + 64 * 1024);
  })());
  const file = await app.broker.call<{ package_id: number; file_sha256: string; size: number }, Record<string, unknown>>(
    routeAction("PUT", "/projects/:id/packages/generic/:package_name/:package_version/*file_name"),
    { id: String(project.id), package_name: "dist", package_version: "1.0.0", file_name: "blob.bin", select: "package_file", headers: { "content-length": String(bytes.length) } },
    { nodeID: `packages-${first.replica}`, stream, meta, timeout: 60_000 } as never,
  );
  expect(file).toMatchObject({ size: bytes.length, file_sha256: sha256(bytes) });

  // Download pinned to the second replica.
  const down = await app.broker.call<Readable, Record<string, unknown>>(
    routeAction("GET", "/projects/:id/packages/generic/:package_name/:package_version/*file_name"),
    { id: String(project.id), package_name: "dist", package_version: "1.0.0", file_name: "blob.bin" },
    { nodeID: `packages-${second.replica}`, meta, timeout: 60_000 } as never,
  );
  expect(sha256(await collect(down))).toBe(sha256(bytes));

  // With the uploading replica gone, the gateway's download is served by the other one.
  await control().stopPid(first.pid);
  try {
    const res = await fetch(`${app.url}/api/v4/projects/${project.id}/packages/generic/dist/1.0.0/blob.bin`, { headers: { "PRIVATE-TOKEN": app.rootToken } });
    expect(res.status).toBe(200);
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(bytes));
    // And an upload through HTTP lands on the surviving replica too.
    const put = await fetch(`${app.url}/api/v4/projects/${project.id}/packages/generic/dist/1.0.1/again.bin?select=package_file`, {
      method: "PUT",
      headers: { "PRIVATE-TOKEN": app.rootToken },
      body: bytes,
    });
    expect(put.status).toBe(200);
    expect((await put.json()).file_sha256).toBe(sha256(bytes));
  } finally {
    await control().startNode("packages", first.replica);
  }
});
