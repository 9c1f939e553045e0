/**
 * A small cron evaluator for pipeline schedules: five fields (minute hour day-of-month month
 * day-of-week) with `*`, ranges, steps, lists and month/day names, plus the @daily-style
 * nicknames, evaluated in an IANA time zone (or one of the Rails zone names GitLab accepts).
 */

interface Field {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  // 7 is Sunday as well.
  { min: 0, max: 7, names: DAYS },
];

const NICKNAMES: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

export interface CronSpec {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Whether day-of-month / day-of-week were restricted (both restricted: either matches, as in Vixie cron). */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

function value(text: string, f: Field): number | null {
  const lower = text.toLowerCase();
  if (f.names && lower in f.names) return f.names[lower];
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= f.min && n <= f.max ? n : null;
}

function parseField(text: string, f: Field): Set<number> | null {
  const out = new Set<number>();
  for (const part of text.split(",")) {
    const m = /^([^/]+)(?:\/(\d+))?$/.exec(part);
    if (!m) return null;
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1) return null;
    let lo: number | null;
    let hi: number | null;
    if (m[1] === "*") [lo, hi] = [f.min, f.max];
    else if (m[1].includes("-")) {
      const [a, b, ...rest] = m[1].split("-");
      if (rest.length) return null;
      [lo, hi] = [value(a, f), value(b, f)];
      if (lo === null || hi === null || lo > hi) return null;
    } else {
      lo = value(m[1], f);
      if (lo === null) return null;
      hi = m[2] === undefined ? lo : f.max;
    }
    for (let v = lo!; v <= hi!; v += step) out.add(v);
  }
  return out.size ? out : null;
}

/** The parsed expression, or null when it is not valid cron. */
export function parseCron(expression: string): CronSpec | null {
  if (typeof expression !== "string") return null;
  const text = NICKNAMES[expression.trim().toLowerCase()] ?? expression.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5) return null;
  const sets = parts.map((p, i) => parseField(p, FIELDS[i]));
  if (sets.some((s) => s === null)) return null;
  const [minutes, hours, days, months, weekdays] = sets as Set<number>[];
  if (weekdays.delete(7)) weekdays.add(0);
  return { minutes, hours, days, months, weekdays, daysRestricted: parts[2] !== "*" && !parts[2].startsWith("*/"), weekdaysRestricted: parts[4] !== "*" && !parts[4].startsWith("*/") };
}

/** Rails (ActiveSupport::TimeZone) names GitLab accepts beside IANA ones, mapped to IANA. */
export const RAILS_ZONES: Record<string, string> = {
  "International Date Line West": "Etc/GMT+12",
  "Midway Island": "Pacific/Midway",
  "American Samoa": "Pacific/Pago_Pago",
  Hawaii: "Pacific/Honolulu",
  Alaska: "America/Juneau",
  "Pacific Time (US & Canada)": "America/Los_Angeles",
  Tijuana: "America/Tijuana",
  "Mountain Time (US & Canada)": "America/Denver",
  Arizona: "America/Phoenix",
  "Central Time (US & Canada)": "America/Chicago",
  "Mexico City": "America/Mexico_City",
  "Eastern Time (US & Canada)": "America/New_York",
  Indiana: "America/Indiana/Indianapolis",
  "Atlantic Time (Canada)": "America/Halifax",
  Newfoundland: "America/St_Johns",
  Brasilia: "America/Sao_Paulo",
  "Buenos Aires": "America/Argentina/Buenos_Aires",
  Greenland: "America/Godthab",
  "Mid-Atlantic": "Atlantic/South_Georgia",
  Azores: "Atlantic/Azores",
  UTC: "Etc/UTC",
  Edinburgh: "Europe/London",
  Lisbon: "Europe/Lisbon",
  London: "Europe/London",
  Dublin: "Europe/Dublin",
  Amsterdam: "Europe/Amsterdam",
  Berlin: "Europe/Berlin",
  Bern: "Europe/Zurich",
  Zurich: "Europe/Zurich",
  Brussels: "Europe/Brussels",
  Copenhagen: "Europe/Copenhagen",
  Madrid: "Europe/Madrid",
  Paris: "Europe/Paris",
  Prague: "Europe/Prague",
  Rome: "Europe/Rome",
  Stockholm: "Europe/Stockholm",
  Vienna: "Europe/Vienna",
  Warsaw: "Europe/Warsaw",
  Athens: "Europe/Athens",
  Bucharest: "Europe/Bucharest",
  Cairo: "Africa/Cairo",
  Helsinki: "Europe/Helsinki",
  Kyiv: "Europe/Kiev",
  Jerusalem: "Asia/Jerusalem",
  Istanbul: "Europe/Istanbul",
  Moscow: "Europe/Moscow",
  Nairobi: "Africa/Nairobi",
  Tehran: "Asia/Tehran",
  "Abu Dhabi": "Asia/Muscat",
  Dubai: "Asia/Dubai",
  Kabul: "Asia/Kabul",
  Karachi: "Asia/Karachi",
  Chennai: "Asia/Kolkata",
  Kolkata: "Asia/Kolkata",
  Mumbai: "Asia/Kolkata",
  "New Delhi": "Asia/Kolkata",
  Kathmandu: "Asia/Kathmandu",
  Dhaka: "Asia/Dhaka",
  Bangkok: "Asia/Bangkok",
  Jakarta: "Asia/Jakarta",
  Beijing: "Asia/Shanghai",
  "Hong Kong": "Asia/Hong_Kong",
  Singapore: "Asia/Singapore",
  Taipei: "Asia/Taipei",
  Perth: "Australia/Perth",
  Osaka: "Asia/Tokyo",
  Sapporo: "Asia/Tokyo",
  Tokyo: "Asia/Tokyo",
  Seoul: "Asia/Seoul",
  Adelaide: "Australia/Adelaide",
  Brisbane: "Australia/Brisbane",
  Canberra: "Australia/Melbourne",
  Melbourne: "Australia/Melbourne",
  Sydney: "Australia/Sydney",
  Auckland: "Pacific/Auckland",
  Wellington: "Pacific/Auckland",
};

/** The IANA zone for a cron_timezone value, or null when neither an IANA nor a Rails name. */
export function ianaZone(name: string): string | null {
  if (typeof name !== "string" || !name) return null;
  const candidate = RAILS_ZONES[name] ?? name;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: candidate });
    return candidate;
  } catch {
    return null;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function localFields(t: number, zone: string) {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", weekday: "short" });
    formatters.set(zone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(t))) parts[p.type] = p.value;
  return {
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    weekday: DAYS[parts.weekday.toLowerCase() as keyof typeof DAYS],
  };
}

const MINUTE = 60_000;
/** How far ahead to look before calling an expression unsatisfiable (e.g. `0 0 30 2 *`). */
const HORIZON = 5 * 366 * 24 * 60 * MINUTE;

function dayMatches(spec: CronSpec, day: number, weekday: number) {
  if (spec.daysRestricted && spec.weekdaysRestricted) return spec.days.has(day) || spec.weekdays.has(weekday);
  return spec.days.has(day) && spec.weekdays.has(weekday);
}

/** The first time strictly after `from` that the expression fires in the zone, or null if never. */
export function nextRun(spec: CronSpec, zone: string, from: Date): Date | null {
  let t = Math.floor(from.getTime() / MINUTE) * MINUTE + MINUTE;
  const end = t + HORIZON;
  while (t < end) {
    const l = localFields(t, zone);
    if (!spec.months.has(l.month) || !dayMatches(spec, l.day, l.weekday)) {
      t += ((24 - l.hour) * 60 - l.minute) * MINUTE; // next local midnight
      continue;
    }
    if (!spec.hours.has(l.hour)) {
      t += (60 - l.minute) * MINUTE;
      continue;
    }
    if (!spec.minutes.has(l.minute)) {
      t += MINUTE;
      continue;
    }
    return new Date(t);
  }
  return null;
}

/** Validation and evaluation in one step: null when the expression or the zone is invalid. */
export function nextRunAt(cron: string, timezone: string, from: Date): Date | null {
  const spec = parseCron(cron);
  const zone = ianaZone(timezone);
  return spec && zone ? nextRun(spec, zone, from) : null;
}
