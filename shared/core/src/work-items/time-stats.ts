/**
 * GitLab's time tracking durations (Gitlab::TimeTrackingFormatter): 8-hour days, 5-day weeks,
 * 4-week months. Humans write them ("1w 2d", "3h30m", "-30m"), the API stores seconds.
 */
const HOUR = 3600;
const DAY = 8 * HOUR;
const WEEK = 5 * DAY;
const MONTH = 4 * WEEK;
/** ChronicDuration's year: 365.25 calendar days (GitLab keeps it when days are shortened). */
const YEAR = 31_557_600;

/** Units of the human form, largest first. */
const UNITS: [string, number][] = [
  ["mo", MONTH],
  ["w", WEEK],
  ["d", DAY],
  ["h", HOUR],
  ["m", 60],
  ["s", 1],
];

/** GitLab's human duration ("1w 2d 3h"); null when zero. */
export function humanDuration(seconds: number): string | null {
  if (!seconds) return null;
  let rest = Math.abs(seconds);
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      parts.push(`${n}${unit}`);
      rest -= n * size;
    }
  }
  return (seconds < 0 ? "-" : "") + parts.join(" ");
}

export const timeStats = (estimate: number, spent: number) => ({
  time_estimate: estimate,
  total_time_spent: spent,
  human_time_estimate: humanDuration(estimate),
  human_total_time_spent: humanDuration(spent),
});

/** The unit words ChronicDuration reads, by their length in seconds. */
const UNIT_WORDS: Record<string, number> = {};
const words = (size: number, ...names: string[]) => names.forEach((n) => (UNIT_WORDS[n] = size));
words(1, "s", "sec", "secs", "second", "seconds");
words(60, "m", "min", "mins", "minute", "minutes");
words(HOUR, "h", "hr", "hrs", "hour", "hours");
words(DAY, "d", "dy", "day", "days");
words(WEEK, "w", "wk", "wks", "week", "weeks");
words(MONTH, "mo", "mos", "month", "months");
words(YEAR, "y", "yr", "yrs", "year", "years");

/** A number and the unit word after it (none: hours, GitLab's default unit). */
const TERM = /(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)/y;
/** What may stand between terms: blanks, commas and "and". */
const GAP = /(?:\s|,|\band\b)*/y;
/** hh:mm or hh:mm:ss. */
const CLOCK = /^(\d+):([0-5]?\d)(?::([0-5]?\d))?$/;

/**
 * Seconds of a human duration, or null when it is not one: "3h30m", "1w 2d", "1.5h", "90"
 * (hours), "1:30" (hh:mm), "-30m" (negative, for subtracting spent time). Unlike ChronicDuration,
 * which drops words it does not know, any unknown word makes the whole duration invalid. A zero
 * duration is null unless `keepZero` (GitLab: an estimate may be 0, spent time may not).
 */
export function parseDuration(input: string, o: { keepZero?: boolean } = {}): number | null {
  let s = input.trim().toLowerCase();
  const negative = s.startsWith("-");
  if (negative) s = s.slice(1).trim();
  if (!s) return null;
  let seconds = 0;
  const clock = CLOCK.exec(s.replace(/\s+/g, ""));
  if (clock) {
    seconds = Number(clock[1]) * HOUR + Number(clock[2]) * 60 + Number(clock[3] ?? 0);
  } else {
    let at = 0;
    while (at < s.length) {
      TERM.lastIndex = at;
      const term = TERM.exec(s);
      if (!term) return null;
      const size = term[2] ? UNIT_WORDS[term[2]] : HOUR;
      if (size === undefined) return null;
      seconds += Number(term[1]) * size;
      GAP.lastIndex = TERM.lastIndex;
      GAP.exec(s);
      at = GAP.lastIndex;
    }
  }
  seconds = Math.floor(seconds);
  if (!Number.isSafeInteger(seconds)) return null;
  if (seconds === 0 && !o.keepZero) return null;
  return negative ? -seconds : seconds;
}
