import { ESLint } from "eslint";
import path from "node:path";

/**
 * The lint rules of eslint.config.js that keep services talking through contracts, tried on
 * planted code: each must refuse what it exists to refuse, and let the contract way through.
 */
const root = path.resolve(__dirname, "../../..");
const eslint = new ESLint({ cwd: root });

async function problems(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const inIssues = "services/issues/src/planted.ts";

test.each([
  ['ctx.call("planted.access.project", { project: 1 })', "action"],
  ["ctx.call(`planted.${kind}.project`, {})", "action"],
  ['this.broker.call("planted.users.refs", { ids: [1] })', "action"],
  ['broker.mcall([{ action: "x" }]); ctx.mcall("planted.users.refs")', "action"],
  ['ctx.broadcast("planted.caches.clear", {})', "Broadcast"],
  ['kit.broker.broadcastLocal("x.y", {})', "Broadcast"],
  ['ctx.emit("planted.issue.opened", {})', "Emit"],
  ['this.broker.emit("planted.issue.opened", {})', "Emit"],
])("a bus call by string name is refused: %s", async (code, word) => {
  expect((await problems(`${code};\n`, inIssues)).join("\n")).toMatch(new RegExp(`no-restricted-syntax: .*${word}`));
});

test("the contract way passes, as do the other .call()s of JavaScript", async () => {
  const code = [
    'import { call } from "@collab/core";',
    'import { Namespaces } from "@collab/namespaces-contract";',
    "await call(ctx, Namespaces.access.project, { project: 1 });",
    "fn.call(this, 1); Object.prototype.hasOwnProperty.call(obj, \"name\"); stream.emit(\"error\", err);",
  ].join("\n");
  expect(await problems(code, inIssues)).toEqual([]);
});

test.each([
  ['import { labelMap } from "@collab/namespaces";', inIssues],
  ['import { x } from "@collab/namespaces/routes";', inIssues],
  ['import { x } from "@collab/accounts/src/domain/users";', "services/gateway/test/e2e/planted.e2e.test.ts"],
  ['import { x } from "../src/domain/issues";', "services/issues/contract/planted.ts"],
  ['import { x } from "@collab/db";', "services/issues/contract/planted.ts"],
])("an import of another service's internals is refused: %s in %s", async (code, file) => {
  expect((await problems(code, file)).join("\n")).toMatch(/no-restricted-imports/);
});

test("contracts may be imported from anywhere; a service its own code", async () => {
  expect(await problems('import { Namespaces } from "@collab/namespaces-contract";\nimport { x } from "./domain/issues";\nimport { y } from "@collab/issues-contract";', inIssues)).toEqual([]);
  expect(await problems('import { z } from "zod";\nimport { actionContract } from "@collab/core";\nimport { Accounts } from "@collab/accounts-contract";\nimport { a } from "./actions";', "services/issues/contract/planted.ts")).toEqual([]);
});
