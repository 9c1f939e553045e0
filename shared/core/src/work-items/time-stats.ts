/** GitLab's human durations: 8-hour days, 5-day weeks, 4-week months; null when zero. */
const UNITS: [string, number][] = [
  ["mo", 4 * 5 * 8 * 3600],
  ["w", 5 * 8 * 3600],
  ["d", 8 * 3600],
  ["h", 3600],
  ["m", 60],
  ["s", 1],
];

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
