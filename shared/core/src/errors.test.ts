import { Errors } from "moleculer";
import {
  ApiError,
  badRequest,
  badRequestMessage,
  conflict,
  errorBodyOf,
  isUnanswered,
  forbidden,
  insufficientScope,
  invalidToken,
  notFound,
  notModified,
  paramError,
  recordNotFound,
  tooManyRequests,
  unauthorized,
  unprocessable,
  validationFailed,
} from "./errors";

/** Status and body as the gateway will render them. */
const answer = (err: unknown) => errorBodyOf(err);

describe("GitLab's error helpers", () => {
  test.each([
    ["paramError", paramError("title is missing"), 400, { error: "title is missing" }],
    ["badRequest", badRequest(), 400, { message: "400 Bad request" }],
    ["badRequest with a reason", badRequest('"title" not given'), 400, { message: '400 Bad request - "title" not given' }],
    ["validationFailed", validationFailed({ bio: ["is too long (maximum is 255 characters)"] }), 400, { message: { bio: ["is too long (maximum is 255 characters)"] } }],
    ["badRequestMessage", badRequestMessage({ error: "Spam detected" }), 400, { message: { error: "Spam detected" } }],
    ["unauthorized", unauthorized(), 401, { message: "401 Unauthorized" }],
    ["unauthorized with a reason", unauthorized("Token expired"), 401, { message: "401 Unauthorized - Token expired" }],
    ["forbidden", forbidden(), 403, { message: "403 Forbidden" }],
    ["forbidden with a reason", forbidden("Must be admin to use sudo"), 403, { message: "403 Forbidden - Must be admin to use sudo" }],
    ["notFound", notFound(), 404, { message: "404 Not Found" }],
    ["notFound of a thing", notFound("Project"), 404, { message: "404 Project Not Found" }],
    ["recordNotFound", recordNotFound(), 404, { message: "404 Not found" }],
    ["conflict", conflict(), 409, { message: "409 Conflict" }],
    ["conflict with a message", conflict("Email has already been taken"), 409, { message: "Email has already been taken" }],
    ["conflict with a list", conflict(["a", "b"]), 409, { message: ["a", "b"] }],
    ["unprocessable", unprocessable(), 422, { message: "422 Unprocessable Entity" }],
    ["unprocessable with a message", unprocessable("Branch does not exist"), 422, { message: "Branch does not exist" }],
    ["notModified", notModified(), 304, { message: "304 Not Modified" }],
    ["tooManyRequests", tooManyRequests(), 429, { message: { error: "This endpoint has been requested too many times. Try again later." } }],
  ])("%s", (_name, err, status, body) => {
    expect(err).toBeInstanceOf(ApiError);
    expect(answer(err)).toEqual({ status, body });
  });

  test("insufficientScope lists the acceptable scopes, space-separated", () => {
    expect(answer(insufficientScope(["api", "read_api"]))).toEqual({
      status: 403,
      body: {
        error: "insufficient_scope",
        error_description: "The request requires higher privileges than provided by the access token.",
        scope: "api read_api",
      },
    });
  });

  test("invalidToken is the OAuth-style 401", () => {
    expect(answer(invalidToken("Token was revoked. You have to re-authorize from the user."))).toEqual({
      status: 401,
      body: { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." },
    });
  });
});

describe("ApiError", () => {
  test("is a MoleculerError with the status as code, a type, and a readable message", () => {
    const err = notFound("User");
    expect(err).toBeInstanceOf(Errors.MoleculerError);
    expect(err).toMatchObject({ code: 404, type: "NOT_FOUND", message: "404 User Not Found", retryable: false });
  });

  test("its message comes from message, else error, else the whole body", () => {
    expect(paramError("id is invalid").message).toBe("id is invalid");
    expect(validationFailed({ name: ["can't be blank"] }).message).toBe('{"message":{"name":["can\'t be blank"]}}');
    expect(new ApiError(418, { teapot: true }).message).toBe('{"teapot":true}');
    expect(new ApiError(418, { teapot: true }).type).toBe("API_ERROR");
  });
});

describe("errorBodyOf", () => {
  test("reads an error recreated from the bus, where instanceof no longer holds", () => {
    const local = forbidden("Not allowed");
    // What the transit layer builds on the calling node from the serialized error.
    const remote = new Errors.MoleculerError(local.message, local.code, local.type, JSON.parse(JSON.stringify(local.data)));
    expect(remote).not.toBeInstanceOf(ApiError);
    expect(errorBodyOf(remote)).toEqual({ status: 403, body: { message: "403 Forbidden - Not allowed" } });
    expect(errorBodyOf({ code: 409, data: { body: { message: "x" } } })).toEqual({ status: 409, body: { message: "x" } });
  });

  test("anything else is not an API answer", () => {
    for (const err of [
      new Error("boom"),
      new Errors.MoleculerError("boom", 500),
      new Errors.MoleculerError("boom", 404, "NOT_FOUND", { other: 1 }),
      { code: "404", data: { body: {} } },
      { code: 404, data: { body: null } },
      { code: 404, data: { body: "text" } },
      null,
      undefined,
      "boom",
    ]) {
      expect(errorBodyOf(err)).toBeUndefined();
    }
  });
});

describe("isUnanswered", () => {
  test("a refusal is an answer; a timeout, an unknown error or a 503 is not (background work tries again)", () => {
    expect(isUnanswered(new ApiError(404, { message: "404 Project Not Found" }))).toBe(false);
    expect(isUnanswered(new ApiError(400, { error: "ref is invalid" }))).toBe(false);
    expect(isUnanswered(new ApiError(503, { message: "503 Service Unavailable" }))).toBe(true);
    expect(isUnanswered(Object.assign(new Error("Request timed out"), { name: "RequestTimeoutError" }))).toBe(true);
    expect(isUnanswered(new Error("boom"))).toBe(true);
  });
});
