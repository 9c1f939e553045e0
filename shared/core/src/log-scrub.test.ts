import { DrizzleQueryError } from "drizzle-orm/errors";
import { pino } from "pino";
import { createBroker, createLogger } from "./broker";
import { ConfigSchema } from "./config";
import { FILTERED, scrubText, scrubValue } from "./log-scrub";
import { pinoOptions } from "./logging";

const SECRET = "s3cr3t-value-7f3a9c";
const SQL = 'insert into "integrations"."integrations" ("properties") values ($1) returning "id"';

/** A failed query as drizzle reports it: SQL and every value in the message, the values in `params`, PostgreSQL's error as the cause. */
function failedQuery(params: unknown[] = [`{"webhook":"https://x.example/${SECRET}"}`, 42]) {
  const pgError = Object.assign(new Error('new row for relation "integrations" violates check constraint "integrations_one_owner"'), { code: "23514", severity: "ERROR", table: "integrations" });
  return new DrizzleQueryError(SQL, params, pgError);
}

/** Lines a logger built with pinoOptions writes, parsed. */
function capture(level = "info") {
  const lines: string[] = [];
  const logger = pino(pinoOptions({ LOG_LEVEL: level as "info" }), { write: (s: string) => lines.push(s) });
  return { logger, lines, text: () => lines.join("") };
}

describe("scrubText", () => {
  test("drops the parameters of a failed query and keeps its SQL", () => {
    const out = scrubText(failedQuery().message);
    expect(out).toBe(`Failed query: ${SQL}\nparams: ${FILTERED}`);
    // Values spanning lines go too: everything after the mark.
    expect(scrubText(`x failed: Failed query: select 1\nparams: a\n${SECRET}\n  more`)).toBe(`x failed: Failed query: select 1\nparams: ${FILTERED}`);
    expect(scrubText("nothing to see\nparams: here")).toBe("nothing to see\nparams: here");
  });

  test("masks access tokens, credential pairs, URL passwords and webhook tokens", () => {
    expect(scrubText("token glpat-AbC_123-xyz9876 used")).toBe(`token glpat-${FILTERED} used`);
    expect(scrubText("gldt-abcdefgh glcbt-12345678 GR1348941abcdEFGH")).toBe(`gldt-${FILTERED} glcbt-${FILTERED} GR1348941${FILTERED}`);
    expect(scrubText(`/api/v4/user?private_token=${SECRET}&page=2`)).toBe(`/api/v4/user?private_token=${FILTERED}&page=2`);
    expect(scrubText(`host=db password=${SECRET} user=x`)).toBe(`host=db password=${FILTERED} user=x`);
    expect(scrubText(`connect to postgres://collab:${SECRET}@db:5432/collab`)).toBe(`connect to postgres://collab:${FILTERED}@db:5432/collab`);
    expect(scrubText(`POST https://discord.com/api/webhooks/123/${SECRET} failed`)).toBe(`POST https://discord.com/api/webhooks/123/${FILTERED} failed`);
    // Ordinary words stay.
    expect(scrubText("global settings: tokens revoked, password reset")).toBe("global settings: tokens revoked, password reset");
  });
});

describe("scrubValue", () => {
  test("an error: message and stack without values (frames kept), no params, cause kept; the original untouched", () => {
    const err = failedQuery();
    const copy = scrubValue(err) as DrizzleQueryError;
    expect(copy).toBeInstanceOf(DrizzleQueryError);
    expect(copy.message).toBe(`Failed query: ${SQL}\nparams: ${FILTERED}`);
    expect(copy.stack).toContain(`params: ${FILTERED}\n    at `);
    expect(copy).not.toHaveProperty("params");
    expect((copy.cause as { code: string }).code).toBe("23514");
    expect(JSON.stringify({ ...copy, stack: copy.stack, message: copy.message })).not.toContain(SECRET);
    expect(err.message).toContain(SECRET);
    expect(err.params).toHaveLength(2);
  });

  test("objects: credential fields filtered (snake, kebab and camel case), nested errors scrubbed, cycles survive", () => {
    const nested: Record<string, unknown> = { headers: { "private-token": SECRET, authorization: `Bearer ${SECRET}` }, apiKey: SECRET, webhook: `https://h/${SECRET}`, token_id: 5, tokenCount: 2 };
    nested.self = nested;
    const out = scrubValue({ ...nested, error: failedQuery(), list: [{ password: SECRET }] }) as Record<string, any>;
    expect(JSON.stringify({ ...out, self: undefined, error: { message: out.error.message } })).not.toContain(SECRET);
    expect(out).toMatchObject({ headers: { "private-token": FILTERED, authorization: FILTERED }, apiKey: FILTERED, webhook: FILTERED, token_id: 5, tokenCount: 2, list: [{ password: FILTERED }] });
  });
});

describe("pinoOptions: whatever is logged, the output holds no values", () => {
  test.each([
    ["an error alone", (l: pino.Logger, e: Error) => l.error(e)],
    ["an error as err", (l: pino.Logger, e: Error) => l.error({ err: e, url: "/x" }, "request failed")],
    ["an error under another key", (l: pino.Logger, e: Error) => l.warn({ error: e }, "failed")],
    ["a message", (l: pino.Logger, e: Error) => l.warn({ err: e.message }, "worker failed")],
    ["an interpolated message", (l: pino.Logger, e: Error) => l.info("failed: %s", e.message)],
  ])("%s", (_what, log) => {
    const { logger, lines, text } = capture();
    log(logger, failedQuery());
    expect(lines).toHaveLength(1);
    expect(text()).not.toContain(SECRET);
    expect(text()).toContain("insert into \\\"integrations\\\"");
  });

  test("the serialized error keeps its type, the PostgreSQL message and the stack frames", () => {
    const { logger, lines } = capture();
    logger.error({ err: failedQuery() }, "request failed");
    const { err } = JSON.parse(lines[0]);
    expect(err.type).toBe("DrizzleQueryError");
    expect(err.message).toContain("violates check constraint");
    expect(err.stack).toMatch(/\n {4}at /);
    expect(err).not.toHaveProperty("params");
    expect(err.query).toBe(SQL);
  });

  test("every logger of the process is built with them: the broker's, createLogger's", () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    try {
      const config = ConfigSchema.parse({ LOG_LEVEL: "info" });
      const broker = createBroker({ services: [], config, nodeID: "scrub-test" });
      broker.getLogger("svc").error(failedQuery());
      broker.getLogger("svc").warn("Request error!", failedQuery().message);
      createLogger(config, "process").error({ err: failedQuery() }, "unhandled");
    } finally {
      spy.mockRestore();
    }
    const ours = written.filter((l) => l.includes("Failed query"));
    expect(ours.length).toBeGreaterThanOrEqual(2);
    expect(written.join("")).not.toContain(SECRET);
  });
});
