import { charCount, isBlank, rubyStrip } from "./text";

describe("rubyStrip", () => {
  test("strips ASCII whitespace and NUL at either end, as Ruby's String#strip", () => {
    expect(rubyStrip(" \t\r\n\v\f title \t\r\n\v\f")).toBe("title");
    expect(rubyStrip("a  b")).toBe("a  b");
    expect(rubyStrip("   ")).toBe("");
  });

  test("keeps what Ruby keeps and JavaScript's trim() would take: BOM, NBSP, the U+2000 spaces, NEL", () => {
    for (const ch of ["\ufeff", "\u00a0", "\u2003", "\u3000", "\u0085", "\u200b", "\u202e"]) {
      expect(rubyStrip(`${ch}title${ch}`)).toBe(`${ch}title${ch}`);
      expect(rubyStrip(` ${ch}title${ch} `)).toBe(`${ch}title${ch}`);
    }
  });

  test("runs in linear time on long runs of whitespace that do not reach the end", () => {
    const s = `${" ".repeat(2_000_000)}x${" ".repeat(2_000_000)}x`;
    const t = Date.now();
    expect(rubyStrip(s)).toBe(s.trimStart());
    expect(Date.now() - t).toBeLessThan(1000);
  });
});

describe("isBlank", () => {
  test("empty or Unicode White_Space only, as Rails' blank?", () => {
    for (const s of ["", " ", "\t\n", "\u00a0", "\u2003\u3000", "\u0085", "\u2028"]) expect({ s, blank: isBlank(s) }).toEqual({ s, blank: true });
  });

  test("zero-width characters, BOM, bidi marks and controls are text", () => {
    for (const s of ["\u200b", "\ufeff", "\u200d", "\u2060", "\u202e", "\u0001", "x"]) expect({ s, blank: isBlank(s) }).toEqual({ s, blank: false });
  });
});

describe("charCount", () => {
  test("counts code points: an emoji is one character, a ZWJ sequence its code points", () => {
    expect(charCount("abc")).toBe(3);
    expect(charCount("😀")).toBe(1);
    expect(charCount("👩‍👩‍👧‍👦")).toBe(7); // 4 people, 3 ZWJ
    expect(charCount("🇺🇸")).toBe(2);
    expect(charCount("e\u0301")).toBe(2);
    expect(charCount("😀".repeat(255))).toBe(255);
  });

  test("a lone surrogate counts as one", () => {
    expect(charCount("a\ud800b")).toBe(3);
    expect(charCount("\udc00\ud800")).toBe(2);
  });
});
