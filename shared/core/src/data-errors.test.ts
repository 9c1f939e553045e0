import { ServiceBroker } from "moleculer";
import { databaseUnavailable, DataExceptionMiddleware, inputFault, sqlStateOf } from "./data-errors";
import { errorBodyOf } from "./errors";
import { actionContract, call } from "./contract";
import { z } from "zod";

/** The toy service the middleware is tried on: it only fails. */
const Store = {
  write: actionContract("store.write", { input: () => z.object({ code: z.string(), wrapped: z.boolean().optional() }), output: () => z.never() }),
  read: actionContract("store.read", { input: () => z.object({}), output: () => z.never() }),
};

/** A database error as pg raises it, optionally wrapped as drizzle does. */
const dbError = (code: string) => Object.assign(new Error(`db error ${code}`), { code });
const wrapped = (code: string) => Object.assign(new Error("Failed query: insert …"), { cause: dbError(code) });

describe("sqlStateOf and inputFault", () => {
  test("reads the SQLSTATE, also through drizzle's wrapper", () => {
    expect(sqlStateOf(dbError("22P05"))).toBe("22P05");
    expect(sqlStateOf(wrapped("54000"))).toBe("54000");
    expect(sqlStateOf(new Error("plain"))).toBeUndefined();
    expect(sqlStateOf(Object.assign(new Error("node"), { code: "ECONNRESET" }))).toBeUndefined();
  });

  test("data exceptions and over-long index values blame the input; everything else the server", () => {
    expect(["22P05", "22021", "22003", "22008", "22007", "54000"].every(inputFault)).toBe(true);
    expect(["23505", "40P01", "57014", "08006", undefined].some(inputFault)).toBe(false);
  });
});

describe("databaseUnavailable", () => {
  test("a server gone, restarting, refusing or out of connections, a socket lost or timed out", () => {
    for (const code of ["08006", "08001", "57P01", "57P03", "53300", "57014", "25P03", "ECONNREFUSED", "ECONNRESET"]) expect(databaseUnavailable(wrapped(code))).toBe(code);
    for (const message of ["Connection terminated unexpectedly", "Query read timeout", "timeout exceeded when trying to connect", 'database "x" is not currently accepting connections'])
      expect(databaseUnavailable(new Error(message))).toBe(message);
  });

  test("not for errors of the request or the code", () => {
    for (const err of [dbError("23505"), dbError("22021"), dbError("40001"), new Error("boom"), null, "text"]) expect(databaseUnavailable(err)).toBeUndefined();
  });
});

describe("DataExceptionMiddleware", () => {
  let broker: ServiceBroker;
  beforeAll(async () => {
    broker = new ServiceBroker({ logger: false, middlewares: [DataExceptionMiddleware] });
    broker.createService({
      name: "store",
      actions: {
        write: (ctx) => Promise.reject(ctx.params.wrapped ? wrapped(String(ctx.params.code)) : dbError(String(ctx.params.code))),
        read: () => Promise.reject(Object.assign(new Error("Failed query: select …"), { cause: new Error("Connection terminated unexpectedly") })),
      },
    });
    await broker.start();
  });
  afterAll(() => broker.stop());

  test("a value the database refuses is a 400 with GitLab's body", async () => {
    const err = await call(broker, Store.write, { code: "22021", wrapped: true }).catch((e: unknown) => e);
    expect(errorBodyOf(err)).toEqual({ status: 400, body: { message: "400 Bad request - Invalid value" } });
    const long = await call(broker, Store.write, { code: "54000" }).catch((e: unknown) => e);
    expect(errorBodyOf(long)).toEqual({ status: 400, body: { message: "400 Bad request - Value is too long" } });
  });

  test("an unavailable database is a 503 the gateway sends with Retry-After", async () => {
    for (const pending of [call(broker, Store.write, { code: "57P01", wrapped: true }), call(broker, Store.read, {})]) {
      const err = await pending.catch((e: unknown) => e);
      expect(errorBodyOf(err)).toEqual({ status: 503, body: { message: "503 Service Unavailable" } });
      expect((err as { data: { retryAfter: number } }).data.retryAfter).toBe(5);
    }
  });

  test("any other database error stays a server error", async () => {
    const err = await call(broker, Store.write, { code: "23505" }).catch((e: unknown) => e);
    expect(errorBodyOf(err)).toBeUndefined();
    expect((err as { code: string }).code).toBe("23505");
  });
});
