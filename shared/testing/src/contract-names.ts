import fs from "node:fs";
import path from "node:path";
import type { ActionContract, EventContract } from "@collab/core";

/** Every action and event entry reachable in a contract object (nested groups included). */
export function contractEntries(contract: unknown, seen = new Set<unknown>()): (ActionContract | EventContract)[] {
  if (!contract || typeof contract !== "object" || seen.has(contract)) return [];
  seen.add(contract);
  const kind = (contract as { kind?: unknown }).kind;
  if ((kind === "action" || kind === "event") && typeof (contract as { name?: unknown }).name === "string") return [contract as ActionContract | EventContract];
  return Object.values(contract).flatMap((v) => contractEntries(v, seen));
}

/**
 * The string literals of `source` that spell one of `names` whole: "…", '…' or a template without
 * substitutions. Comments are not code: a name mentioned in one is fine.
 */
export function stringNamesIn(source: string, names: ReadonlySet<string>): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:\\])\/\/.*$/gm, "$1");
  const found: string[] = [];
  for (const m of code.matchAll(/(["'`])([A-Za-z][\w.-]*)\1/g)) {
    // The declaration itself: actionContract("svc.x.y", …) / eventContract("svc.x.y", …).
    if (/(action|event)Contract\(\s*$/.test(code.slice(Math.max(0, m.index - 40), m.index))) continue;
    if (names.has(m[2])) found.push(m[2]);
  }
  return found;
}

/** The TypeScript files of the repository's packages outside contracts: where names must not be spelled. */
export function sourceFilesOutsideContracts(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name === "contract") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(full);
    }
  };
  for (const top of ["shared", "services"]) for (const pkg of fs.readdirSync(path.join(root, top))) walk(path.join(root, top, pkg));
  return out;
}
