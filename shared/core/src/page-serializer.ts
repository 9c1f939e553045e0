import { Serializers } from "moleculer";
import type { JsonPage } from "./reply";

/** The first byte of a packet that carries a serialised page after its JSON head. */
const PAGE_MARK = 0;
/** The first byte of a packet that carries a stream chunk's bytes after its JSON head. */
const CHUNK_MARK = 1;
const NEWLINE = 0x0a;

/** The field of a stream chunk packet holding its bytes: `params` (a request stream's), `data` (a response stream's). */
const chunkField = (payload: Record<string, unknown>): "params" | "data" | null =>
  Buffer.isBuffer(payload.params) ? "params" : Buffer.isBuffer(payload.data) ? "data" : null;

const carriesJsonPage = (payload: Record<string, unknown>): payload is { data: JsonPage } => {
  const data = payload.data as Partial<JsonPage> | null | undefined;
  return typeof data === "object" && data !== null && data.$page === true && typeof data.itemsJson === "string";
};

/**
 * Moleculer's JSON serializer, but a reply that carries a page serialised by the service that
 * answered (JsonPage, pageAsJsonMiddleware) travels as bytes: a marker byte, the packet as JSON
 * without the items, a newline, then the items' JSON as it is. Written into the packet as a JSON
 * string instead, the items would be escaped there and unescaped at the gateway (every quote of a
 * 40 KB page: ~5% of the answering service's CPU), only for the gateway to write that text out.
 * A stream chunk travels the same way: a marker byte, its head, a newline, its bytes. Any other
 * packet is plain JSON (JSON.stringify never writes a raw newline, nor starts with a marker
 * byte). Every process of one deployment uses it (createBroker).
 */
export class PageSerializer extends Serializers.Base {
  serialize(payload: Record<string, any>): Buffer {
    // A stream chunk (moleculer streams: uploads, downloads, git's transport): its bytes follow the
    // head as they are, instead of JSON's array of numbers (`{"type":"Buffer","data":[…]}`), three
    // to four times larger and slow to write and read.
    const field = chunkField(payload);
    if (field) {
      const head = JSON.stringify({ ...payload, [field]: null, $chunk: field });
      return Buffer.concat([Buffer.from([CHUNK_MARK]), Buffer.from(head), Buffer.from([NEWLINE]), payload[field] as Buffer]);
    }
    if (!carriesJsonPage(payload)) return Buffer.from(JSON.stringify(payload));
    const { itemsJson, ...page } = payload.data;
    return Buffer.from(`\u0000${JSON.stringify({ ...payload, data: page })}\n${itemsJson}`);
  }

  deserialize(buf: Buffer | string): any {
    const bytes = typeof buf === "string" ? Buffer.from(buf) : buf;
    if (bytes[0] === CHUNK_MARK) {
      const end = bytes.indexOf(NEWLINE, 1);
      const packet = JSON.parse(bytes.toString("utf8", 1, end));
      const field = packet.$chunk as "params" | "data";
      delete packet.$chunk;
      packet[field] = bytes.subarray(end + 1);
      return packet;
    }
    if (bytes[0] !== PAGE_MARK) return JSON.parse(bytes.toString("utf8"));
    const end = bytes.indexOf(NEWLINE, 1);
    const packet = JSON.parse(bytes.toString("utf8", 1, end));
    packet.data.itemsJson = bytes.toString("utf8", end + 1);
    return packet;
  }
}
