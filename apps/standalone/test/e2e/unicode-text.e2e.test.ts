import { apiClient, assertStatus as ok, createGroup, createProject, eventually, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Valid Unicode text is stored and answered back exactly as sent, as GitLab stores it: direction
 * overrides, zero-width characters and BOM, C0/C1 controls, emoji ZWJ sequences and flags,
 * combining marks — raw in JSON, as ASCII-only `\u` escapes, or in a form. Limits count
 * characters as Ruby does (code points), and titles are stripped as Ruby strips (ASCII
 * whitespace only). Only what PostgreSQL cannot hold (NUL, lone surrogates) is refused
 * (hostile-input.e2e.test.ts).
 */
let app: TestApp;
let root: ApiClient;
let project: { id: number };
beforeAll(async () => {
  app = await startApp("unicode-text");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  const group = await createGroup(root, "unicode", "unicode", { visibility: "public" });
  project = await createProject(root, { name: "text", namespace_id: group.id, visibility: "public", initialize_with_readme: true });
});

/** A JSON body with every non-ASCII character as a `\u` escape (surrogate pairs as two), as Python's json.dumps sends it. */
const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

async function postRaw(path: string, body: string, contentType = "application/json") {
  const res = await fetch(`${app.url}/api/v4${path}`, { method: "POST", headers: { "PRIVATE-TOKEN": app.rootToken, "Content-Type": contentType }, body });
  return { status: res.status, body: await res.json() };
}

const FAMILY = "👩‍👩‍👧‍👦"; // four people joined by three ZWJ
const TEXTS = {
  bidi: "invoice \u202egnp.exe \u2066isolated\u2069 \u202a\u202b\u202c\u202d",
  "zero-width": "zero\u200bwidth\u200cnon\u200djoiner\u2060word \ufeffbom\ufeff",
  controls: "bell\u0007 esc\u001b[31m del\u007f c1\u0080\u0085\u009f tab\tcr\rvt\u000bend",
  emoji: `${FAMILY} 🏳️‍🌈 🇺🇸🇯🇵 👍🏽 🧑🏽‍💻 #️⃣ 🏴󠁧󠁢󠁳󠁣󠁴󠁿`,
  combining: "e\u0301 Z\u0338\u0322a\u0336l\u0335g\u0337o \u0e01\u0e49\u0e49",
  noncharacters: "\ufffe\uffff \udbff\udfff \ufdd0",
};

describe("labels", () => {
  test("a label named with an emoji ZWJ sequence is created, listed back identically and attaches to issues by name", async () => {
    const names = [FAMILY, "🏳️‍🌈 pride", "🇺🇸", `bug ${FAMILY}`, "\u202eRTL", "zero\u200bwidth"];
    for (const name of names) {
      const res = ok(await root.post(`/projects/${project.id}/labels`, { json: { name, color: "#ff0000", description: `about ${name}` } }), 201, name);
      expect(res.body).toMatchObject({ name, description: `about ${name}` });
    }
    const listed = ok(await root.get(`/projects/${project.id}/labels`), 200, "list").body as { name: string }[];
    expect(listed.map((l) => l.name).sort()).toEqual([...names].sort());
    // Addressed by name in the path.
    expect(ok(await root.get(`/projects/${project.id}/labels/${encodeURIComponent(FAMILY)}`), 200, "by name").body.name).toBe(FAMILY);
    // Named on an issue, and found again by the label filter.
    const issue = ok(await root.post(`/projects/${project.id}/issues`, { json: { title: "tagged", labels: `${FAMILY},🇺🇸` } }), 201, "issue").body;
    expect([...issue.labels].sort()).toEqual([FAMILY, "🇺🇸"].sort());
    await eventually(async () => {
      const found = ok(await root.get(`/projects/${project.id}/issues`, { query: { labels: FAMILY } }), 200, "filter").body as { iid: number }[];
      expect(found.map((i) => i.iid)).toEqual([issue.iid]);
    });
    // A second label with the same emoji name is the usual conflict, not an error.
    expect((await root.post(`/projects/${project.id}/labels`, { json: { name: FAMILY, color: "#00ff00" } })).status).toBe(409);
  });

  test("the 255-character limit counts characters as GitLab does: 255 emoji fit, 256 do not", async () => {
    ok(await root.post(`/projects/${project.id}/labels`, { json: { name: "😀".repeat(255), color: "#ff0000" } }), 201, "255 emoji");
    const over = await root.post(`/projects/${project.id}/labels`, { json: { name: "😀".repeat(256), color: "#ff0000" } });
    expect([over.status, over.body]).toEqual([400, { message: { title: ["is too long (maximum is 255 characters)"] } }]);
  });

  test("a BOM or a zero-width space is a name, and is kept where JavaScript's trim() would drop it", async () => {
    for (const name of ["\ufeff", "\u200b", "tail\ufeff", "\u00a0nbsp\u00a0"]) {
      expect(ok(await root.post(`/projects/${project.id}/labels`, { json: { name: ` ${name} `, color: "#ff0000" } }), 201, JSON.stringify(name)).body.name).toBe(name);
    }
    // Unicode spaces only are blank, as Rails' presence check finds.
    expect((await root.post(`/projects/${project.id}/labels`, { json: { name: "\u00a0\u2003", color: "#ff0000" } })).status).toBe(400);
  });
});

describe("issues", () => {
  test.each(Object.entries(TEXTS))("a title and description with %s round-trip exactly", async (_kind, text) => {
    const created = ok(await root.post(`/projects/${project.id}/issues`, { json: { title: text, description: `${text}\n${text}` } }), 201, "create").body;
    expect([created.title, created.description]).toEqual([text, `${text}\n${text}`]);
    const read = ok(await root.get(`/projects/${project.id}/issues/${created.iid}`), 200, "get").body;
    expect([read.title, read.description]).toEqual([text, `${text}\n${text}`]);
    const listed = ok(await root.get(`/projects/${project.id}/issues`), 200, "list").body as { title: string }[];
    expect(listed.map((i) => i.title)).toEqual([text]);
  });

  test("an issue title with U+202E round-trips through an update, raw, escaped and as a form", async () => {
    const issue = ok(await root.post(`/projects/${project.id}/issues`, { json: { title: "plain" } }), 201, "create").body;
    const title = "\u202eevil\u202c title 😀";
    expect(ok(await root.put(`/projects/${project.id}/issues/${issue.iid}`, { json: { title } }), 200, "raw").body.title).toBe(title);
    const escaped = await postRaw(`/projects/${project.id}/issues`, asciiJson({ title, description: TEXTS.emoji }));
    expect([escaped.status, escaped.body.title, escaped.body.description]).toEqual([201, title, TEXTS.emoji]);
    const form = ok(await root.post(`/projects/${project.id}/issues`, { form: { title, description: TEXTS.controls } }), 201, "form").body;
    expect([form.title, form.description]).toEqual([title, TEXTS.controls]);
  });

  test("titles are stripped as Ruby strips: ASCII whitespace goes, a BOM stays; Unicode spaces alone are blank", async () => {
    const bom = ok(await root.post(`/projects/${project.id}/issues`, { json: { title: " \t\ufefftitle\ufeff\r\n" } }), 201, "bom").body;
    expect(bom.title).toBe("\ufefftitle\ufeff");
    ok(await root.post(`/projects/${project.id}/issues`, { json: { title: "\u200b" } }), 201, "zero-width title");
    expect((await root.post(`/projects/${project.id}/issues`, { json: { title: "\u00a0\u3000" } })).body).toEqual({ message: { title: ["can't be blank"] } });
  });
});

describe("merge requests", () => {
  test("an emoji title of 200 characters is accepted (GitLab counts characters), and round-trips", async () => {
    ok(await root.post(`/projects/${project.id}/repository/branches`, { json: { branch: "feature", ref: "main" } }), 201, "branch");
    const title = `${FAMILY} ${"😀".repeat(190)}`;
    const mr = ok(await root.post(`/projects/${project.id}/merge_requests`, { json: { title, source_branch: "feature", target_branch: "main", description: TEXTS.bidi } }), 201, "mr").body;
    expect([mr.title, mr.description]).toEqual([title, TEXTS.bidi]);
    expect(ok(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200, "get").body.title).toBe(title);
  });
});
