/**
 * The Sentry envelope format: a JSON header line, then items, each a JSON item header line and
 * a payload — `length` bytes when the item header gives a length, else up to the next newline.
 */
export interface EnvelopeItem {
  type: string;
  payload: unknown;
}

export interface Envelope {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

export class EnvelopeError extends Error {}

const NEWLINE = 0x0a;

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new EnvelopeError("invalid JSON");
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function parseEnvelope(body: Buffer): Envelope {
  let at = 0;
  /** The bytes up to the next newline (or the end), moving past that newline. */
  const line = (): Buffer => {
    const end = body.indexOf(NEWLINE, at);
    const stop = end < 0 ? body.length : end;
    const bytes = body.subarray(at, stop);
    at = stop + 1;
    return bytes;
  };
  const header = parseJson(line());
  if (!isObject(header)) throw new EnvelopeError("envelope header is not an object");
  const items: EnvelopeItem[] = [];
  while (at < body.length) {
    const headerLine = line();
    if (headerLine.length === 0) continue; // a trailing newline
    const itemHeader = parseJson(headerLine);
    if (!isObject(itemHeader) || typeof itemHeader.type !== "string") throw new EnvelopeError("item header without a type");
    let payload: Buffer;
    if (itemHeader.length !== undefined) {
      const length = itemHeader.length;
      if (typeof length !== "number" || !Number.isInteger(length) || length < 0 || at + length > body.length) throw new EnvelopeError("bad item length");
      payload = body.subarray(at, at + length);
      at += length;
      if (body[at] === NEWLINE) at += 1;
    } else {
      payload = line();
    }
    const json = itemHeader.type === "attachment" ? null : parseJson(payload);
    items.push({ type: itemHeader.type, payload: json });
  }
  return { header, items };
}

/** What is stored of an error event. */
export interface ErrorEventFields {
  eventId: string;
  exceptionType: string | null;
  exceptionMessage: string | null;
  platform: string | null;
  environment: string | null;
  occurredAt: Date;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

/** Sentry timestamps: seconds since the epoch (a number, maybe fractional) or an RFC 3339 string. */
function timestampOf(v: unknown): Date | undefined {
  const d = typeof v === "number" ? new Date(v * 1000) : typeof v === "string" ? new Date(/^\d+(\.\d+)?$/.test(v) ? Number(v) * 1000 : v) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
}

/**
 * The fields of an error event, or undefined when the payload is not one we can store (no event
 * id, no exception): GitLab's "Unsupported sentry payload". The event id may come from the
 * envelope header when the item omits it.
 */
export function errorEventFields(payload: unknown, fallbackEventId?: unknown, now = new Date()): ErrorEventFields | undefined {
  if (!isObject(payload)) return undefined;
  const eventId = str(payload.event_id) ?? str(fallbackEventId);
  if (!eventId || !/^[0-9a-f-]{32,36}$/i.test(eventId)) return undefined;
  const exception = payload.exception;
  const values = Array.isArray(exception) ? exception : isObject(exception) && Array.isArray(exception.values) ? exception.values : undefined;
  if (!values || values.length === 0 || !values.every(isObject)) return undefined;
  // The SDK lists chained exceptions innermost first: the last one is what was thrown.
  const thrown = values[values.length - 1] as Record<string, unknown>;
  return {
    eventId: eventId.replace(/-/g, "").toLowerCase(),
    exceptionType: str(thrown.type),
    exceptionMessage: str(thrown.value),
    platform: str(payload.platform),
    environment: str(payload.environment),
    occurredAt: timestampOf(payload.timestamp) ?? now,
  };
}
