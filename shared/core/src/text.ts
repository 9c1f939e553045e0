/**
 * Text as GitLab's Ruby models see it. JavaScript's own helpers differ on Unicode: trim() also
 * strips U+FEFF (BOM), NBSP and the U+2000 spaces, which Ruby's strip keeps and GitLab stores, and
 * `length` counts UTF-16 units, so an emoji counts twice against a 255-character limit.
 */

/** Ruby's String#strip: NUL and ASCII whitespace (tab, LF, VT, FF, CR, space) at either end only. */
const STRIPPED = new Set([0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]);

/** Ruby's String#strip, in linear time whatever the input (a regex anchored at the end is not). */
export function rubyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && STRIPPED.has(s.charCodeAt(start))) start++;
  while (end > start && STRIPPED.has(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Rails' String#blank?: empty or Unicode White_Space only (NBSP is blank; ZWSP and BOM are text). */
export const isBlank = (s: string) => /^\p{White_Space}*$/u.test(s);

/** Characters as Ruby counts them (code points): what GitLab's length limits count. */
export function charCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
