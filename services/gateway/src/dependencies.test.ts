import fs from "node:fs";
import path from "node:path";

/**
 * The gateway runs no service's code: it mounts routes and documents them from the services'
 * contracts (@collab/<svc>-contract), so a service's release never means redeploying it. Its
 * package and every import of its code say so.
 */
const ROOT = path.resolve(__dirname, "..");
const allowed = (name: string) => name === "@collab/core" || /^@collab\/[a-z-]+-contract$/.test(name);

test("the gateway package depends on contracts and @collab/core only", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
  const collab = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies }).filter((n) => n.startsWith("@collab/"));
  expect(collab.filter((n) => !allowed(n))).toEqual([]);
  expect(collab).toContain("@collab/issues-contract");
});

test("no file of the gateway imports a service, a shared implementation or the composition root", () => {
  const files = fs.readdirSync(path.join(ROOT, "src"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  expect(files.length).toBeGreaterThan(10);
  const offending: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, "src", file), "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](@collab\/[^"'/]+(?:\/[^"']*)?)["']/g)) {
      const name = m[1].split("/").slice(0, 2).join("/");
      if (!allowed(name)) offending.push(`${file}: ${m[1]}`);
    }
  }
  expect(offending).toEqual([]);
});
