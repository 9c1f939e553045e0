import fc from "fast-check";
import { parsePgTimestamp } from "./pg-timestamp";

// parsePgTimestamp must give what drizzle's `new Date(text)` gives for every text PostgreSQL
// writes, and leave every other form to `new Date`.
const two = (n: number) => String(n).padStart(2, "0");

const pgText = fc
  .record({
    year: fc.integer({ min: 1000, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
    zone: fc.oneof(
      fc.constant("+00"),
      fc.record({ sign: fc.constantFrom("+", "-"), hours: fc.integer({ min: 0, max: 14 }), minutes: fc.option(fc.constantFrom(0, 30, 45), { nil: undefined }) }).map(
        ({ sign, hours, minutes }) => `${sign}${two(hours)}${minutes === undefined ? "" : `:${two(minutes)}`}`,
      ),
    ),
  })
  .map((t) => `${t.year}-${two(t.month)}-${two(t.day)} ${two(t.hour)}:${two(t.minute)}:${two(t.second)}${t.fraction === undefined ? "" : `.${t.fraction}`}${t.zone}`);

test("PostgreSQL's timestamptz text reads as new Date reads it, to the millisecond", () => {
  fc.assert(
    fc.property(pgText, (text) => {
      expect(parsePgTimestamp(text, false)?.getTime()).toBe(new Date(text).getTime());
    }),
    { numRuns: 2000 },
  );
});

test("a timestamp without time zone reads as UTC, as drizzle's decoder appends +0000", () => {
  expect(parsePgTimestamp("2025-11-24 10:00:00.5", true)?.toISOString()).toBe(new Date("2025-11-24 10:00:00.5+0000").toISOString());
  expect(parsePgTimestamp("2025-11-24 10:00:00", true)?.toISOString()).toBe("2025-11-24T10:00:00.000Z");
  expect(parsePgTimestamp("2025-11-24 10:00:00", false)).toBeUndefined();
});

test("other forms are left to new Date", () => {
  for (const text of ["infinity", "-infinity", "2025-01-01 00:00:00+00 BC", "0099-01-01 00:00:00+00", "2025-01-01T00:00:00Z", "2025-01-01 00:00:00+05:30:15", "2025-01-01 00:00:00.+00", "2025-1-01 00:00:00+00"])
    expect(parsePgTimestamp(text, false)).toBeUndefined();
});
