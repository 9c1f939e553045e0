import { Accounts } from "@collab/accounts-contract";
import { badRequest, notFound, notModified } from "@collab/core";
import { Errors } from "moleculer";
import ApiGateway from "moleculer-web";
import { toHttpError } from "./http-errors";

const web = (ApiGateway as unknown as { Errors: Record<string, new (...args: unknown[]) => Error> }).Errors;

describe("toHttpError", () => {
  test("errors that know their GitLab answer keep it, local or recreated from the bus", () => {
    expect(toHttpError(notFound("Project"))).toEqual({ status: 404, body: { message: "404 Project Not Found" }, internal: false });
    const remote = new Errors.MoleculerError("x", 400, "BAD_REQUEST", { body: { message: "400 Bad request - reason" } });
    expect(toHttpError(remote)).toEqual({ status: 400, body: { message: "400 Bad request - reason" }, internal: false });
    expect(toHttpError(badRequest())).toMatchObject({ status: 400, body: { message: "400 Bad request" } });
  });

  test("304 drops its body", () => {
    expect(toHttpError(notModified())).toEqual({ status: 304, body: null, internal: false });
  });

  test("no matching route is GitLab's catch-all 404", () => {
    expect(toHttpError(new web.NotFoundError())).toEqual({ status: 404, body: { error: "404 Not Found" }, internal: false });
    expect(toHttpError(new Errors.ServiceNotFoundError({ action: "x.y" }))).toEqual({ status: 404, body: { error: "404 Not Found" }, internal: false });
  });

  test("a service without a live node is 503; a timeout is 503 too, and worth logging", () => {
    expect(toHttpError(new Errors.ServiceNotAvailableError({ action: Accounts.users.list.name }))).toEqual({
      status: 503,
      body: { message: "503 Service Unavailable" },
      internal: false,
    });
    expect(toHttpError(new web.ServiceUnavailableError())).toMatchObject({ status: 503, body: { message: "503 Service Unavailable" } });
    expect(toHttpError(new Errors.RequestTimeoutError({ action: Accounts.users.list.name, nodeID: "n1" }))).toEqual({
      status: 503,
      body: { message: "503 Service Unavailable" },
      internal: true,
    });
  });

  test("body limits and rate limits", () => {
    const tooLarge = { status: 413, body: { message: "413 Request Entity Too Large" }, internal: false };
    expect(toHttpError(new web.PayloadTooLarge({}))).toEqual(tooLarge);
    expect(toHttpError(new Errors.MoleculerError("request entity too large", 413, "entity.too.large"))).toEqual(tooLarge);
    expect(toHttpError(new web.RateLimitExceeded())).toEqual({ status: 429, body: { message: "429 Too Many Requests" }, internal: false });
  });

  test("a moleculer validation error is a Grape-style 400", () => {
    expect(toHttpError(new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", []))).toEqual({
      status: 400,
      body: { error: "Parameters validation error!" },
      internal: false,
    });
  });

  test("anything unexpected is a bare 500 that reveals nothing, and is logged", () => {
    const secret = new Error('relation "accounts.users" does not exist');
    secret.stack = "Error: relation...\n    at Object.<anonymous> (/app/services/accounts/src/finders/users.finder.ts:1:1)";
    for (const err of [secret, new TypeError("Cannot read properties of undefined"), new Errors.MoleculerError("db down", 500, "DB"), "a string", null, undefined, { code: 418 }]) {
      const answer = toHttpError(err);
      expect(answer).toEqual({ status: 500, body: { message: "500 Internal Server Error" }, internal: true });
      expect(JSON.stringify(answer.body)).not.toMatch(/relation|users|\.ts|Cannot|db down/);
    }
  });
});

test("moleculer-web's undecodable path param is 400", () => {
  expect(toHttpError(new web.BadRequestError("ERR_UNABLE_DECODE_PARAM"))).toEqual({ status: 400, body: { message: "400 Bad request" }, internal: false });
});
