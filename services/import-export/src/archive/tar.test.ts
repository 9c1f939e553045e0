import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { normalizeName, readTar, readTarGz, TarError, writeTar, writeTarGz } from "./tar";

const hasTar = (() => {
  try {
    execFileSync("tar", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const withTar = hasTar ? it : it.skip;

describe("ustar writer and reader", () => {
  it("round-trips files and folders, binary content and block-sized files", () => {
    const binary = Buffer.from(Array.from({ length: 1500 }, (_, i) => i % 256));
    const entries = [
      { name: "VERSION", data: Buffer.from("0.2.4") },
      { name: "tree", data: Buffer.alloc(0), type: "directory" as const },
      { name: "tree/empty.ndjson", data: Buffer.alloc(0) },
      { name: "tree/block", data: Buffer.alloc(512, 7) },
      { name: "tree/binary", data: binary },
      { name: "tree/ünïcødé.json", data: Buffer.from('{"a":"é"}') },
    ];
    const tar = writeTar(entries);
    expect(tar.length % 512).toBe(0);
    const read = readTar(tar);
    expect(read.map((e) => [e.name, e.type, e.data.toString("hex")])).toEqual(entries.map((e) => [e.name, e.type ?? "file", e.data.toString("hex")]));
    expect(readTarGz(writeTarGz(entries), { maxBytes: 1 << 20 }).map((e) => e.name)).toEqual(entries.map((e) => e.name));
  });

  it("stores long names in the ustar prefix, and beyond it in a PAX path record", () => {
    const prefixed = `${"d".repeat(120)}/${"f".repeat(90)}`;
    const pax = `${"x".repeat(300)}/${"y".repeat(150)}.json`;
    const read = readTar(writeTar([{ name: prefixed, data: Buffer.from("1") }, { name: pax, data: Buffer.from("2") }]));
    expect(read.map((e) => [e.name, e.data.toString()])).toEqual([
      [prefixed, "1"],
      [pax, "2"],
    ]);
  });

  it("refuses corrupt headers, truncated archives, too many entries and gzip bombs", () => {
    const tar = writeTar([{ name: "a", data: Buffer.from("hello") }]);
    const corrupt = Buffer.from(tar);
    corrupt[0] = "b".charCodeAt(0); // name changed, checksum not
    expect(() => readTar(corrupt)).toThrow(new TarError("invalid tar header checksum"));
    expect(() => readTar(tar.subarray(0, 514))).toThrow("unexpected end of archive");
    expect(() => readTar(writeTar([{ name: "a", data: Buffer.alloc(1) }, { name: "b", data: Buffer.alloc(1) }]), { maxEntries: 1 })).toThrow("too many entries");
    const bomb = gzipSync(writeTar([{ name: "zeros", data: Buffer.alloc(5 << 20) }]));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(() => readTarGz(bomb, { maxBytes: 1 << 20 })).toThrow("decompressed archive size exceeds 1048576 bytes");
    expect(() => readTarGz(Buffer.from("not gzip at all"), { maxBytes: 1 << 20 })).toThrow("not a gzip archive");
  });

  it("normalizes names as archives made by tar(1) spell them", () => {
    expect(normalizeName("./tree//groups/")).toBe("tree/groups");
    expect(normalizeName("././VERSION")).toBe("VERSION");
  });

  withTar("reads what GNU tar writes and writes what GNU tar reads", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tar-test-"));
    try {
      const src = path.join(dir, "src");
      const long = `${"n".repeat(110)}/${"m".repeat(110)}.ndjson`;
      fs.mkdirSync(path.join(src, "tree", path.dirname(long)), { recursive: true });
      fs.writeFileSync(path.join(src, "VERSION"), "0.2.4");
      fs.writeFileSync(path.join(src, "tree", long), "{}\n");
      const made = path.join(dir, "made.tar.gz");
      execFileSync("tar", ["-czf", made, "-C", src, "."]);
      const files = readTarGz(fs.readFileSync(made), { maxBytes: 1 << 20 }).filter((e) => e.type === "file");
      expect(files.map((e) => [e.name, e.data.toString()]).sort()).toEqual([
        ["VERSION", "0.2.4"],
        [`tree/${long}`, "{}\n"],
      ]);

      const ours = path.join(dir, "ours.tar.gz");
      fs.writeFileSync(ours, writeTarGz([{ name: "tree", data: Buffer.alloc(0), type: "directory" }, { name: `tree/${long}`, data: Buffer.from("x") }, { name: "VERSION", data: Buffer.from("v") }]));
      const listing = execFileSync("tar", ["-tzf", ours], { encoding: "utf8" }).trim().split("\n");
      expect(listing).toEqual(["tree/", `tree/${long}`, "VERSION"]);
      const out = path.join(dir, "out");
      fs.mkdirSync(out);
      execFileSync("tar", ["-xzf", ours, "-C", out]);
      expect(fs.readFileSync(path.join(out, "tree", long), "utf8")).toBe("x");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
