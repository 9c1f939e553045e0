import { Serializers } from "moleculer";
import type { JsonPage } from "./reply";

/** The first byte of a packet that carries a serialised page after its JSON head. */
const PAGE_MARK = 0;
const NEWLINE = 0x0a;

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
 * Any other packet is plain JSON (JSON.stringify never writes a raw newline, nor starts with the
 * marker byte). Every process of one deployment uses it (createBroker).
 */
export class PageSerializer extends Serializers.Base {
  serialize(payload: Record<string, any>): Buffer {
    if (!carriesJsonPage(payload)) return Buffer.from(JSON.stringify(payload));
    const { itemsJson, ...page } = payload.data;
    return Buffer.from(`\u0000${JSON.stringify({ ...payload, data: page })}\n${itemsJson}`);
  }

  deserialize(buf: Buffer | string): any {
    const bytes = typeof buf === "string" ? Buffer.from(buf) : buf;
    if (bytes[0] !== PAGE_MARK) return JSON.parse(bytes.toString("utf8"));
    const end = bytes.indexOf(NEWLINE, 1);
    const packet = JSON.parse(bytes.toString("utf8", 1, end));
    packet.data.itemsJson = bytes.toString("utf8", end + 1);
    return packet;
  }
}
