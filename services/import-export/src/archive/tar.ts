import { gunzipSync, gzipSync } from "node:zlib";

/**
 * A small POSIX ustar writer and reader (no dependency): what group export archives need —
 * regular files and folders, long names through PAX `path` records — and what reading archives
 * made by GNU tar or GitLab needs besides (GNU `L` long names, base-256 sizes, `./` prefixes).
 * Everything stays in memory: archives are bounded by the upload and decompression limits.
 */

const BLOCK = 512;

export interface TarEntry {
  /** Path inside the archive, `/`-separated, without a leading `./`. */
  name: string;
  data: Buffer;
  /** Regular file (default) or folder. */
  type?: "file" | "directory";
  mode?: number;
  mtime?: Date;
}

export class TarError extends Error {}

// ---- writing -------------------------------------------------------------------------------------

function writeString(block: Buffer, offset: number, length: number, value: string) {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length > length) throw new TarError(`tar header field too long: ${value}`);
  bytes.copy(block, offset);
}

/** A numeric field: zero-padded octal, NUL-terminated. */
function writeOctal(block: Buffer, offset: number, length: number, value: number) {
  const text = Math.floor(value).toString(8);
  if (text.length > length - 1) throw new TarError(`tar header number too large: ${value}`);
  writeString(block, offset, length, `${text.padStart(length - 1, "0")}\0`);
}

/** Splits a long name into ustar's prefix (≤155 bytes) and name (≤100 bytes) at a slash, if it can. */
function splitName(name: string): { prefix: string; name: string } | null {
  if (Buffer.byteLength(name) <= 100) return { prefix: "", name };
  for (let i = name.length - 1; i > 0; i--) {
    if (name[i] !== "/") continue;
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest.length > 0) return { prefix, name: rest };
  }
  return null;
}

function header(name: string, prefix: string, size: number, typeflag: string, mode: number, mtime: Date): Buffer {
  const block = Buffer.alloc(BLOCK);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, mode);
  writeOctal(block, 108, 8, 0); // uid
  writeOctal(block, 116, 8, 0); // gid
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, Math.floor(mtime.getTime() / 1000));
  block.fill(0x20, 148, 156); // checksum field counts as spaces while summing
  writeString(block, 156, 1, typeflag);
  writeString(block, 257, 6, "ustar\0");
  writeString(block, 263, 2, "00");
  writeString(block, 265, 32, "root");
  writeString(block, 297, 32, "root");
  writeString(block, 345, 155, prefix);
  writeString(block, 148, 8, `${checksum(block).toString(8).padStart(6, "0")}\0 `);
  return block;
}

const checksum = (block: Buffer) => {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return sum;
};

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** One PAX record: "<length> <key>=<value>\n", the length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

/** The tar stream of these entries (two zero blocks at the end, as POSIX requires). */
export function writeTar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const directory = entry.type === "directory";
    let name = entry.name.replace(/^\.\//, "");
    if (directory && !name.endsWith("/")) name += "/";
    const data = directory ? Buffer.alloc(0) : entry.data;
    const mode = entry.mode ?? (directory ? 0o755 : 0o644);
    const mtime = entry.mtime ?? new Date();
    let split = splitName(name);
    if (!split) {
      const pax = Buffer.from(paxRecord("path", name), "utf8");
      parts.push(header("PaxHeader", "", pax.length, "x", 0o644, mtime), pax, padding(pax.length));
      split = { prefix: "", name: Buffer.from(name).subarray(0, 100).toString("utf8").replace(/\uFFFD+$/, "") };
    }
    parts.push(header(split.name, split.prefix, data.length, directory ? "5" : "0", mode, mtime), data, padding(data.length));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

// ---- reading -------------------------------------------------------------------------------------

function readString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString("utf8");
}

/** Octal (space/NUL padded), or GNU base-256 when the high bit of the first byte is set. */
function readNumber(block: Buffer, offset: number, length: number): number {
  const field = block.subarray(offset, offset + length);
  if (field[0] & 0x80) {
    let value = field[0] & 0x7f;
    for (let i = 1; i < length; i++) value = value * 256 + field[i];
    return value;
  }
  const text = field.toString("latin1").replace(/[\0 ]+$/, "").replace(/^[\0 ]+/, "");
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarError("invalid tar header");
  return parseInt(text, 8);
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    if (space === -1) break;
    const length = Number(data.subarray(pos, space).toString("latin1"));
    if (!Number.isInteger(length) || length <= 0 || pos + length > data.length) throw new TarError("invalid PAX header");
    const record = data.subarray(space + 1, pos + length - 1).toString("utf8");
    const eq = record.indexOf("=");
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    pos += length;
  }
  return out;
}

/** `./a//b/` → `a/b`; absolute and parent-relative names are kept verbatim but never match lookups. */
export const normalizeName = (name: string) => name.replace(/^(\.\/)+/, "").replace(/\/{2,}/g, "/").replace(/\/$/, "");

export interface ReadOptions {
  /** Refuses archives with more entries than this. */
  maxEntries?: number;
}

/** The regular files and folders of a tar stream, in archive order. Links and devices are skipped. */
export function readTar(tar: Buffer, { maxEntries = 100_000 }: ReadOptions = {}): TarEntry[] {
  const entries: TarEntry[] = [];
  let pos = 0;
  let longName: string | undefined;
  let pax: Record<string, string> = {};
  while (pos + BLOCK <= tar.length) {
    const block = tar.subarray(pos, pos + BLOCK);
    if (block.every((b) => b === 0)) return entries; // end-of-archive marker
    const stored = readNumber(block, 148, 8);
    let unsigned = 0;
    let signed = 0;
    for (let i = 0; i < BLOCK; i++) {
      const b = i >= 148 && i < 156 ? 0x20 : block[i];
      unsigned += b;
      signed += b > 127 ? b - 256 : b;
    }
    if (stored !== unsigned && stored !== signed) throw new TarError("invalid tar header checksum");
    const size = readNumber(block, 124, 12);
    const typeflag = String.fromCharCode(block[156] || 0x30);
    const dataStart = pos + BLOCK;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length) throw new TarError("unexpected end of archive");
    const data = tar.subarray(dataStart, dataEnd);
    pos = dataStart + Math.ceil(size / BLOCK) * BLOCK;

    if (typeflag === "x") {
      pax = parsePax(data);
      continue;
    }
    if (typeflag === "g") continue; // global PAX header: nothing we use
    if (typeflag === "L") {
      longName = data.toString("utf8").replace(/\0+$/, "");
      continue;
    }
    const magic = readString(block, 257, 6);
    const prefix = magic.startsWith("ustar") ? readString(block, 345, 155) : "";
    const plain = readString(block, 0, 100);
    const name = pax.path ?? longName ?? (prefix ? `${prefix}/${plain}` : plain);
    const mtime = new Date(readNumber(block, 136, 12) * 1000);
    const mode = readNumber(block, 100, 8);
    longName = undefined;
    pax = {};
    if (typeflag === "0" || typeflag === "7") entries.push({ name: normalizeName(name), data: Buffer.from(data), type: "file", mode, mtime });
    else if (typeflag === "5") entries.push({ name: normalizeName(name), data: Buffer.alloc(0), type: "directory", mode, mtime });
    // links, devices, FIFOs: not part of an export, ignored
    if (entries.length > maxEntries) throw new TarError(`too many entries in the archive (more than ${maxEntries})`);
  }
  // GNU tar tolerates a missing end marker; a header cut short is an error.
  if (pos < tar.length && tar.subarray(pos).some((b) => b !== 0)) throw new TarError("unexpected end of archive");
  return entries;
}

/** tar.gz of these entries. */
export const writeTarGz = (entries: readonly TarEntry[]) => gzipSync(writeTar(entries), { level: 9 });

/**
 * The entries of a tar.gz, refusing to inflate more than `maxBytes` (a decompression bomb stops
 * there instead of exhausting memory).
 */
export function readTarGz(archive: Buffer, { maxBytes, ...options }: ReadOptions & { maxBytes: number }): TarEntry[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(archive, { maxOutputLength: maxBytes });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError) throw new TarError(`decompressed archive size exceeds ${maxBytes} bytes`);
    throw new TarError("not a gzip archive");
  }
  return readTar(tar, options);
}
