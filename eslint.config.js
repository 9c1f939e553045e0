/**
 * ESLint (run by `npm test` and `npm run lint`): the rules that keep services talking through
 * contracts. The compiler checks types; these check what it cannot see:
 *
 * - no bus call or broadcast by a string name: `call(ctx, Namespaces.access.project, input)`
 *   (@collab/core contract.ts) is the one way, so every name lives in a contract;
 * - no import of another service's implementation: only its contract (@collab/<svc>-contract);
 * - a contract imports nothing but zod, @collab/core and other contracts.
 *
 * Syntax only (no type information): it runs over the whole repository in seconds.
 */
const fs = require("node:fs");
const path = require("node:path");
const tseslint = require("typescript-eslint");

const SERVICES = fs.readdirSync(path.join(__dirname, "services")).filter((d) => fs.existsSync(path.join(__dirname, "services", d, "package.json")));
const DOMAIN_SERVICES = SERVICES.filter((s) => fs.existsSync(path.join(__dirname, "services", s, "contract")));

const STRING_NAME = "Literal, TemplateLiteral";
const BUS_BY_STRING = [
  {
    selector: `CallExpression[callee.type="MemberExpression"][callee.property.name=/^(call|mcall)$/] > :matches(${STRING_NAME}).arguments:first-child`,
    message: "Call an action through its contract: call(ctx, Service.group.action, input) from @collab/core.",
  },
  {
    selector: `CallExpression[callee.type="MemberExpression"][callee.property.name=/^(broadcast|broadcastLocal)$/] > :matches(${STRING_NAME}).arguments:first-child`,
    message: "Broadcast through the event's contract entry (broadcast() from @collab/core).",
  },
  {
    selector: `CallExpression[callee.type="MemberExpression"][callee.object.name=/^(ctx|broker)$/][callee.property.name="emit"] > :matches(${STRING_NAME}).arguments:first-child`,
    message: "Emit through the event's contract entry.",
  },
  {
    selector: `CallExpression[callee.type="MemberExpression"][callee.object.property.name="broker"][callee.property.name="emit"] > :matches(${STRING_NAME}).arguments:first-child`,
    message: "Emit through the event's contract entry.",
  },
];

/** Another service's package (its contract is a package of its own, @collab/<svc>-contract). */
const otherServices = (self) =>
  SERVICES.filter((s) => s !== self).map((s) => ({
    regex: `^@collab/${s}(/.*)?$`,
    message: `Use ${s}'s contract (@collab/${s}-contract), not its implementation.`,
  }));

const INTERNALS = { group: ["@collab/*/src", "@collab/*/src/*", "@collab/*/dist", "@collab/*/dist/*"], message: "Import a package by its name and exports, never its files." };

module.exports = [
  { ignores: ["**/node_modules/**", "**/dist/**", "bench/**", "scripts/**", "**/*.js", "**/*.cjs", "**/*.mjs"] },
  {
    files: ["shared/**/*.ts", "services/**/*.ts", "apps/**/*.ts"],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: "module" },
    // Known to the directives already in the code (eslint-disable-next-line @typescript-eslint/…).
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "off" },
    rules: {
      "no-restricted-syntax": ["error", ...BUS_BY_STRING],
      "no-restricted-imports": ["error", { patterns: [INTERNALS] }],
    },
  },
  // A domain service and its tests: other services only through their contracts.
  ...DOMAIN_SERVICES.map((s) => ({
    files: [`services/${s}/src/**/*.ts`],
    rules: { "no-restricted-imports": ["error", { patterns: [INTERNALS, ...otherServices(s)] }] },
  })),
  // The gateway: every service through its contract only (it runs none of their code).
  {
    files: ["services/gateway/src/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [INTERNALS, ...otherServices("gateway"), { regex: "^@collab/(db|notes|work-items|standalone)(/.*)?$", message: "The gateway runs no service's code: contracts and @collab/core only." }] }] },
  },
  // A contract: zod, @collab/core and other contracts; never the service's own code.
  {
    files: ["services/*/contract/**/*.ts", "shared/*/contract/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            INTERNALS,
            { regex: "^@collab/(?!core$|[a-z-]+-contract$)", message: "A contract imports only zod, @collab/core and other contracts." },
            { group: ["../*", "../../*"], message: "A contract imports nothing from its service's implementation." },
          ],
        },
      ],
    },
  },
];
