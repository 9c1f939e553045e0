import { base64Pieces, base64Size, readCapped } from "./upload";
import { CHUNK_BYTES, chunkCountOf, rechunk } from "./storage";

async function all(source: AsyncIterable<Buffer>) {
  const out: Buffer[] = [];
  for await (const b of source) out.push(b);
  return out;
}

describe("storage helpers", () => {
  test("rechunk cuts any stream into full chunks and a shorter last one", async () => {
    const input = Buffer.alloc(CHUNK_BYTES * 2 + 10, 7);
    const pieces = [input.subarray(0, 1000), input.subarray(1000, CHUNK_BYTES + 5), input.subarray(CHUNK_BYTES + 5)];
    const chunks = await all(rechunk(pieces));
    expect(chunks.map((c) => c.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES, 10]);
    expect(Buffer.concat(chunks).equals(input)).toBe(true);
    expect(await all(rechunk([]))).toEqual([]);
    expect(chunkCountOf(0)).toBe(0);
    expect(chunkCountOf(CHUNK_BYTES + 1)).toBe(2);
  });

  test("readCapped stops at the limit with 413", async () => {
    expect((await readCapped([Buffer.from("abc"), Buffer.from("de")], 5)).toString()).toBe("abcde");
    await expect(readCapped([Buffer.from("abc"), Buffer.from("def")], 5)).rejects.toMatchObject({ code: 413 });
  });

  test("base64 attachments decode in pieces to the same bytes", () => {
    const bytes = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
    const data = bytes.toString("base64");
    expect(Buffer.concat([...base64Pieces(data, 4 * 1000)]).equals(bytes)).toBe(true);
    expect(base64Size(data)).toBe(bytes.length);
    expect(base64Size(Buffer.from("ab").toString("base64"))).toBe(2);
  });
});
