import path from "node:path";
import fs from "node:fs";
import { Accounts } from "@collab/accounts-contract";
import { Activity } from "@collab/activity-contract";
import { Admin } from "@collab/admin-contract";
import { ErrorTracking } from "@collab/error-tracking-contract";
import { ImportExport } from "@collab/import-export-contract";
import { Integrations } from "@collab/integrations-contract";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { Packages } from "@collab/packages-contract";
import { Runners } from "@collab/runners-contract";
import { Snippets } from "@collab/snippets-contract";
import { contractEntries, sourceFilesOutsideContracts, stringNamesIn } from "./contract-names";

/**
 * Every action and event name lives in its service's contract: spelled as a string anywhere else
 * (code or tests), it would be a call the compiler cannot check and a name no search finds.
 */
const root = path.resolve(__dirname, "../../..");
const CONTRACTS = { Accounts, Activity, Admin, ErrorTracking, ImportExport, Integrations, Issues, MergeRequests, Namespaces, Packages, Runners, Snippets };
const entries = Object.values(CONTRACTS).flatMap((c) => contractEntries(c));
const names = new Set(entries.map((e) => e.name));

test("each name is declared once, by the service it starts with", () => {
  const counts = new Map<string, number>();
  for (const e of new Set(entries)) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
  expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
  for (const [label, contract] of Object.entries(CONTRACTS)) {
    const service = label.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());
    expect([label, contractEntries(contract).filter((e) => !e.name.startsWith(`${service}.`)).map((e) => e.name)]).toEqual([label, []]);
  }
});

test("no action or event name is spelled as a string outside the contracts", () => {
  const offenders = sourceFilesOutsideContracts(root).flatMap((file) => stringNamesIn(fs.readFileSync(file, "utf8"), names).map((name) => `${path.relative(root, file)}: "${name}"`));
  expect(offenders).toEqual([]);
});

test("the scan finds a planted name, and lets declarations and comments be", () => {
  const planted = new Set(["planted.access.project", "planted.issue.opened"]);
  const code = [
    "// calls planted.access.project, see \"planted.access.project\" in the contract",
    "/* \"planted.issue.opened\" */",
    'export const entry = actionContract("planted.access.project", { input, output });',
    'await ctx.call("planted.access.project", { project: 1 });',
    "subscribe(`planted.issue.opened`);",
    "const other = 'planted.issue.closed';",
  ].join("\n");
  expect(stringNamesIn(code, planted)).toEqual(["planted.access.project", "planted.issue.opened"]);
});
