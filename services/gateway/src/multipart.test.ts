import { errorBodyOf } from "@collab/core";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { assignField, multipartFields } from "./multipart";

describe("assignField", () => {
  const build = (...fields: [string, string][]) => {
    const body: Record<string, unknown> = {};
    for (const [name, value] of fields) assignField(body, name, value);
    return body;
  };

  test("plain, array and hash names, as Rack nests them", () => {
    expect(build(["name", "x"], ["scopes[]", "api"], ["scopes[]", "read_user"], ["position[base_sha]", "abc"], ["position[head_sha]", "def"])).toEqual({
      name: "x",
      scopes: ["api", "read_user"],
      position: { base_sha: "abc", head_sha: "def" },
    });
  });

  test("arrays of hashes start a new element when a key repeats", () => {
    expect(build(["variables[][key]", "A"], ["variables[][value]", "1"], ["variables[][key]", "B"], ["variables[][value]", "2"])).toEqual({
      variables: [
        { key: "A", value: "1" },
        { key: "B", value: "2" },
      ],
    });
  });

  test("the last value of a repeated plain name wins; malformed names stay as they are", () => {
    expect(build(["a", "1"], ["a", "2"], ["b]", "3"], ["[c]", "4"])).toEqual({ a: "2", "b]": "3", "[c]": "4" });
  });

  test("prototype keys are ignored", () => {
    const body = build(["__proto__[admin]", "true"], ["x[constructor][prototype][admin]", "true"]);
    expect(body).toEqual({});
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe("multipartFields", () => {
  /** Runs the middleware on a request with this content type and body; resolves with req.body or the error. */
  function run(contentType: string, body: Buffer | string, limit = 1024) {
    const req = Object.assign(Readable.from([Buffer.from(body)]), { headers: { "content-type": contentType } }) as unknown as IncomingMessage & { body?: unknown };
    return new Promise<{ body?: unknown; err?: unknown }>((resolve) =>
      multipartFields(limit)(req, {} as ServerResponse, (err?: unknown) => resolve(err ? { err } : { body: req.body })),
    );
  }
  const form = (parts: [string, string, string?][]) =>
    parts
      .map(([name, value, filename]) =>
        filename
          ? `--b\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n${value}\r\n`
          : `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join("") + "--b--\r\n";

  test("text fields become the body; files are dropped", async () => {
    const result = await run("multipart/form-data; boundary=b", form([["bio", "hello"], ["scopes[]", "api"], ["avatar", "PNG", "a.png"]]));
    expect(result).toEqual({ body: { bio: "hello", scopes: ["api"] } });
  });

  test("file parts are kept aside in req.$files, base64-encoded, for routes that declare them", async () => {
    const req = Object.assign(Readable.from([Buffer.from(form([["name", "n"], ["file", "GZ\u00e9", "x.tar.gz"]]))]), {
      headers: { "content-type": "multipart/form-data; boundary=b" },
    }) as unknown as IncomingMessage & { body?: unknown; $files?: unknown };
    await new Promise<void>((resolve, reject) => multipartFields(1024)(req, {} as ServerResponse, (err?: unknown) => (err ? reject(err) : resolve())));
    expect(req.body).toEqual({ name: "n" });
    const bytes = Buffer.from("GZ\u00e9");
    expect(req.$files).toEqual({ file: { filename: "x.tar.gz", content_type: "image/png", size: bytes.length, data: bytes.toString("base64") } });
  });

  test("other content types are left to the other parsers", async () => {
    expect(await run("application/json", '{"a":1}')).toEqual({ body: undefined });
  });

  test("a body over the limit is 413", async () => {
    const { err } = await run("multipart/form-data; boundary=b", form([["bio", "x".repeat(2000)]]));
    expect(errorBodyOf(err)).toEqual({ status: 413, body: { message: "413 Request Entity Too Large" } });
  });

  test("an unreadable body is 400", async () => {
    const { err } = await run("multipart/form-data; boundary=b", "not multipart at all");
    expect(errorBodyOf(err)).toEqual({ status: 400, body: { message: "400 Bad request - Invalid request body" } });
  });
});
