import type { Readable } from "node:stream";
import { tooLarge } from "./storage";

/** The request body of a streamed upload (RouteDef.streamBody): `ctx.stream`, or nothing. */
export function uploadBody(ctx: { stream?: unknown }): AsyncIterable<Buffer> {
  const stream = ctx.stream as Readable | null | undefined;
  if (stream && typeof (stream as Readable)[Symbol.asyncIterator] === "function") return withoutDestroy(stream);
  return (async function* () {})();
}

/**
 * The stream's pieces, without destroying it when the reader stops early (a limit passed, a bad
 * document): in one process the stream is the HTTP request itself, and destroying it would close
 * the connection the error answer must go back on. The gateway drains what is left.
 */
async function* withoutDestroy(stream: Readable): AsyncGenerator<Buffer> {
  const pieces = stream[Symbol.asyncIterator]();
  for (;;) {
    const { value, done } = await pieces.next();
    if (done) return;
    yield value as Buffer;
  }
}

/** The Content-Length the client declared, when it declared a valid one. */
export function declaredLength(headers: { "content-length"?: string } | undefined): number | undefined {
  const raw = headers?.["content-length"];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/** 413 before reading anything when the declared length is already over the limit. */
export function assertDeclaredWithin(headers: { "content-length"?: string } | undefined, maxBytes: number) {
  const declared = declaredLength(headers);
  if (declared !== undefined && declared > maxBytes) throw tooLarge();
}

/** Reads a whole (small) body, refusing it with 413 as soon as it passes `maxBytes`. */
export async function readCapped(source: AsyncIterable<Buffer | Uint8Array | string>, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const piece of source) {
    const buf = typeof piece === "string" ? Buffer.from(piece) : Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
    size += buf.length;
    if (size > maxBytes) throw tooLarge();
    parts.push(buf);
  }
  return Buffer.concat(parts, size);
}

/** Decodes base64 lazily in pieces (an npm tarball attachment) so that storeFile sees a stream. */
export function* base64Pieces(data: string, pieceChars = 4 * 64 * 1024): Generator<Buffer> {
  const clean = data.replace(/\s+/g, "");
  for (let i = 0; i < clean.length; i += pieceChars) yield Buffer.from(clean.slice(i, i + pieceChars), "base64");
}

/** Bytes a base64 string decodes to (GitLab's calculated_package_file_size). */
export function base64Size(data: string): number {
  const clean = data.replace(/\s+/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}
