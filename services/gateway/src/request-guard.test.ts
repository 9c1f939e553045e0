import { notFound, paramError } from "@collab/core";
import { Issues } from "@collab/issues-contract";
import type { IncomingMessage } from "node:http";
import { guardRequest, malformedParam, malformedUrl, MAX_PARAM_DEPTH, MAX_URL_BYTES, notFoundForPathParam, oversizedParams, unsupportedBody } from "./request-guard";

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

/** `depth` nested arrays around a string. */
function nested(depth: number): unknown {
  let v: unknown = "x";
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe("malformedUrl", () => {
  test.each(["/api/v4/projects/%ff%fe", "/api/v4/projects/1%00", "/api/v4/projects/%E0%A4%A", "/api/v4/projects/%ed%a0%80"])("refuses the path %s", (url) => {
    expect(malformedUrl(url)?.data).toEqual({ body: { message: "400 Bad request - Malformed path" } });
  });

  test("refuses a query string that does not decode", () => {
    expect(malformedUrl("/api/v4/projects?search=%ff")?.data).toEqual({ body: { message: "400 Bad request - Malformed query string" } });
    expect(malformedUrl("/api/v4/projects?search=100%")?.code).toBe(400);
  });

  test("an over-long URL is 414", () => {
    expect(malformedUrl(`/api/v4/projects?search=${"x".repeat(MAX_URL_BYTES)}`)?.data).toEqual({ body: { message: "414 Request-URI Too Large" } });
    expect(malformedUrl(`/api/v4/projects?search=${"x".repeat(1000)}`)).toBeUndefined();
  });

  test("lets well-formed URLs through, encoded paths and non-ASCII included", () => {
    for (const url of ["/api/v4/projects/group%2Fproject", "/api/v4/projects?search=caf%C3%A9+cr%C3%A8me", "/api/v4/users?search=%E2%9C%93", "/-/health"]) {
      expect(malformedUrl(url)).toBeUndefined();
    }
  });
});

describe("malformedParam", () => {
  test("names the top-level param holding a NUL byte or an unpaired surrogate, at any depth", () => {
    expect(malformedParam({ title: "ok", description: "a\0b" })).toBe("description");
    expect(malformedParam({ labels: ["x", "y\ud800"] })).toBe("labels");
    expect(malformedParam({ position: { base_sha: "\udc00" } })).toBe("position");
    expect(malformedParam({ variables: [{ ["k\0"]: "v" }] })).toBe("variables");
  });

  test("refuses params nested deeper than the limit, without recursion", () => {
    expect(malformedParam({ title: nested(MAX_PARAM_DEPTH - 1) })).toBeUndefined();
    expect(malformedParam({ title: nested(MAX_PARAM_DEPTH + 1) })).toBe("title");
    expect(malformedParam({ title: nested(200_000) })).toBe("title");
  });

  test("accepts ordinary text, emoji (paired surrogates) and non-string values", () => {
    expect(malformedParam({ title: "Café 🚀 ✓", id: 3, confidential: true, labels: ["a", "b"], due_date: null })).toBeUndefined();
  });
});

describe("oversizedParams", () => {
  const form = (bytes: number, extra: Record<string, string> = {}) =>
    ({ url: "/api/v4/projects/1/issues", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(bytes), ...extra } }) as unknown as IncomingMessage;

  test("control characters from a form grow six-fold in JSON: over the limit there, 413", () => {
    // 200 raw \x01 bytes in a form body of ~220 bytes: 1,200 bytes of `\u0001` escapes on the bus.
    const params = { title: "t", description: "\u0001".repeat(200) };
    expect(oversizedParams(form(220), params, 1024)).toBe(true);
    expect(() => guardRequest(form(220), params, { maxParamBytes: 1024 })).toThrow(expect.objectContaining({ code: 413, data: { body: { message: "413 Request Entity Too Large" } } }));
    expect(oversizedParams(form(220), { title: "t", description: "x".repeat(200) }, 1024)).toBe(false);
  });

  test("multi-byte text (emoji, bidi marks) is measured in UTF-8 bytes, as it travels", () => {
    expect(oversizedParams(form(2000), { title: "😀".repeat(200) }, 1024)).toBe(false); // 800 bytes
    expect(oversizedParams(form(2000), { title: "\u202e".repeat(400) }, 1024)).toBe(true); // 1,200 bytes
  });

  test("a request that cannot reach the limit even at the worst growth is not measured", () => {
    const params = { description: "\u0001".repeat(200) }; // what such a small request cannot carry: proves no measuring
    expect(oversizedParams(form(100), params, 1024)).toBe(false);
    // A chunked body has no declared length: always measured.
    expect(oversizedParams(form(100, { "transfer-encoding": "chunked" }), params, 1024)).toBe(true);
  });
});

describe("unsupportedBody", () => {
  test.each(["application/xml", "text/plain", "application/octet-stream", "text/html; charset=utf-8"])("a %s body is 415", (type) => {
    const err = unsupportedBody(request({ "content-type": type, "content-length": "5" }));
    expect(err?.code).toBe(415);
    expect(err?.data).toEqual({ body: { error: `The provided content-type '${type.split(";")[0]}' is not supported.` } });
  });

  test("JSON, forms, multipart and empty bodies are parsed as usual", () => {
    for (const type of ["application/json", "application/json; charset=utf-8", "application/merge-patch+json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      expect(unsupportedBody(request({ "content-type": type, "content-length": "10" }))).toBeUndefined();
    }
    expect(unsupportedBody(request({ "content-type": "application/xml", "content-length": "0" }))).toBeUndefined();
    expect(unsupportedBody(request({}))).toBeUndefined();
  });

  test("a chunked body counts as a body", () => {
    expect(unsupportedBody(request({ "content-type": "text/plain", "transfer-encoding": "chunked" }))?.code).toBe(415);
  });
});

describe("notFoundForPathParam", () => {
  const route = { method: "GET", path: "/projects/:id/issues/:issue_iid", action: Issues.issues.get.name } as const;

  test("an out-of-range integer in the path is an unknown record: 404 naming it", () => {
    expect(notFoundForPathParam(paramError("issue_iid is invalid", ["issue_iid"]), route)?.data).toEqual({ body: { message: "404 Issue Not Found" } });
    expect(notFoundForPathParam(paramError("id is invalid", ["id"]), route)?.data).toEqual({ body: { message: "404 Project Not Found" } });
    const schedule = { ...route, path: "/projects/:id/pipeline_schedules/:pipeline_schedule_id" };
    expect(notFoundForPathParam(paramError("x", ["pipeline_schedule_id"]), schedule)?.data).toEqual({ body: { message: "404 Pipeline Schedule Not Found" } });
    const nameless = { ...route, path: "/:a/:b" };
    expect(notFoundForPathParam(paramError("x", ["b"]), nameless)?.data).toEqual({ body: { message: "404 Not Found" } });
  });

  test("out of range in the query or body, or no range problem at all: the service's answer stands", () => {
    expect(notFoundForPathParam(paramError("milestone_id is invalid", ["milestone_id"]), route)).toBeUndefined();
    expect(notFoundForPathParam(paramError("issue_iid is invalid"), route)).toBeUndefined();
    expect(notFoundForPathParam(notFound("Project"), route)).toBeUndefined();
    expect(notFoundForPathParam(paramError("id is invalid", ["id"]), undefined)).toBeUndefined();
  });
});
