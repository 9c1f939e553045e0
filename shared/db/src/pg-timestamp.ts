const ZERO = 48;

/** The decimal number in `s` from `at`, `length` digits long; NaN when one is no digit. */
function digits(s: string, at: number, length: number): number {
  let n = 0;
  for (let i = at; i < at + length; i++) {
    const d = s.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

/**
 * PostgreSQL's text form of a timestamp — `2025-11-24 10:00:00.123456+00`, the fraction optional,
 * the zone `±hh` or `±hh:mm` (absent for a timestamp without time zone, read as UTC when
 * `zonelessIsUtc`) — as a Date, to the millisecond as `new Date(text)` gives it (the fraction
 * truncated). `new Date` reads this form with V8's slow legacy parser, about ten times the cost;
 * drizzle decodes every timestamp of a row with it. Undefined for any other form (BC, infinity,
 * years before 1000, a zone with seconds): those take `new Date`.
 */
export function parsePgTimestamp(s: string, zonelessIsUtc: boolean): Date | undefined {
  const n = s.length;
  if (n < 19 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 32 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (!(year >= 1000) || Number.isNaN(month + day + hour + minute + second)) return undefined;
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === 46) {
    let count = 0;
    for (i++; i < n; i++, count++) {
      const d = s.charCodeAt(i) - ZERO;
      if (d < 0 || d > 9) break;
      if (count < 3) ms = ms * 10 + d;
    }
    if (count === 0) return undefined;
    for (; count < 3; count++) ms *= 10;
  }
  let offsetMinutes = 0;
  if (i === n) {
    if (!zonelessIsUtc) return undefined;
  } else {
    const sign = s.charCodeAt(i);
    if (sign !== 43 && sign !== 45) return undefined;
    const zoneEnd = i + 3 === n ? n : i + 6 === n && s.charCodeAt(i + 3) === 58 ? n : -1;
    if (zoneEnd < 0) return undefined;
    const hours = digits(s, i + 1, 2);
    const minutes = zoneEnd === i + 3 ? 0 : digits(s, i + 4, 2);
    if (Number.isNaN(hours + minutes)) return undefined;
    offsetMinutes = (sign === 43 ? 1 : -1) * (hours * 60 + minutes);
  }
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000);
}
