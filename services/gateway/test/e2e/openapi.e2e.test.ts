/**
 * The generated OpenAPI document and its reference page, through the gateway: a client built from
 * the document at test time (swagger-client: operations by operationId, parameters, bodies and
 * security schemes read from the document) creates and reads an issue; the Swagger UI page renders
 * the operations in headless Chromium (screenshot kept as a test artifact).
 */
import { apiClient, createGroup, createProject, type TestApp } from "@collab/testing";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SwaggerClient from "swagger-client";
import { startApp } from "@collab/standalone/test/app";

/** Counts the requests the generated client sends, to show the answers below came through it. */
let intercepted = 0;
const requestInterceptor = (req: { headers: Record<string, string> }) => {
  intercepted += 1;
  return req;
};

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let app: TestApp;
beforeAll(async () => {
  app = await startApp("openapi");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

test("GET /api/v4/openapi.json needs no credentials and lists the issue routes", async () => {
  const res = await fetch(`${app.url}/api/v4/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const doc = await res.json();
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.paths["/api/v4/projects/{id}/issues"].post.operationId).toBe("issues_issues_create");
  expect(doc.paths["/api/v4/projects/{id}/issues/{issue_iid}"].get.operationId).toBe("issues_issues_get");
});

test("a client generated from the document creates and reads an issue", async () => {
  const root = apiClient(app.url, app.rootToken);
  const group = await createGroup(root, "Docs", "docs");
  const project = await createProject(root, { name: "Reference", namespace_id: group.id });

  // The client is generated from the served document, cut down to the issue operations it calls:
  // swagger-client resolves every operation before the first call, and the whole document's five
  // hundred take a minute on a busy 2-core machine (the pooled connection of its first fetch is
  // long closed by then: ECONNRESET).
  const url = `${app.url}/api/v4/openapi.json`;
  const served = (await (await fetch(url)).json()) as { paths: Record<string, unknown> };
  const used = ["/api/v4/projects/{id}/issues", "/api/v4/projects/{id}/issues/{issue_iid}"];
  const spec = { ...served, paths: Object.fromEntries(used.map((path) => [path, served.paths[path]])) };
  const client = await SwaggerClient({ url, spec, authorizations: { privateToken: app.rootToken }, requestInterceptor });
  expect(client.errors).toEqual([]);
  const created = await client.execute({
    operationId: "issues_issues_create",
    parameters: { id: project.id },
    requestBody: { title: "Written through the OpenAPI client", labels: "docs,api" },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ iid: 1, project_id: project.id, title: "Written through the OpenAPI client" });

  const read = await client.execute({ operationId: "issues_issues_get", parameters: { id: project.id, issue_iid: created.body.iid } });
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ id: created.body.id, title: "Written through the OpenAPI client", state: "opened" });
  expect([...read.body.labels].sort()).toEqual(["api", "docs"]);

  const listed = await client.execute({ operationId: "issues_issues_listProject", parameters: { id: project.id, per_page: 1 } });
  expect(listed.status).toBe(200);
  expect(listed.headers["x-total"]).toBe("1");
  expect(intercepted).toBeGreaterThanOrEqual(3);

  // Without credentials the same client gets GitLab's 401 body.
  // The document as the first client resolved it.
  const anonymous = await SwaggerClient({ url, spec: client.spec, requestInterceptor });
  await expect(anonymous.execute({ operationId: "issues_issues_create", parameters: { id: project.id }, requestBody: { title: "x" } })).rejects.toMatchObject({
    status: 401,
    response: { body: { message: "401 Unauthorized" } },
  });
}, 120_000);

test("the reference page renders the operations in headless Chromium", async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it (Debian: apt-get install -y chromium; scripts/test.sh does so as root) or set CHROMIUM_PATH`);
  }
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const external: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(app.url)) external.push(r.url());
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const res = await page.goto(`${app.url}/api/v4/docs`);
    expect(res?.status()).toBe(200);
    await page.waitForSelector("h3.opblock-tag", { timeout: 60_000 });
    expect(await page.textContent(".info .title")).toContain("Collab API");
    // Open the issues tag: its operations show with method and path.
    await page.click('h3.opblock-tag[data-tag="issues.issues"]');
    const create = page.locator('.opblock-post:has(.opblock-summary-path[data-path="/api/v4/projects/{id}/issues"])');
    await create.first().waitFor({ timeout: 10_000 });
    expect(await page.locator(".opblock").count()).toBeGreaterThan(10);
    const dir = join(process.env.TEST_ARTIFACTS_DIR ?? tmpdir(), "collab-openapi");
    mkdirSync(dir, { recursive: true });
    const shot = join(dir, "api-docs.png");
    await create.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot, fullPage: false });
    expect(existsSync(shot)).toBe(true);
    console.log(`API docs screenshot: ${shot}`);
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
  } finally {
    await browser.close();
  }
  // Chromium's start and Swagger UI's render of five hundred operations: 20 s alone on 2 cores, more beside other test files.
}, 120_000);
