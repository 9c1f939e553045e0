/** Job artifacts: the format each type must have, and when an artifact expires (types and formats are in the contract). */
import { ARTIFACT_TYPE_FORMATS, type ArtifactFormat, type ArtifactType } from "@collab/runners-contract";

/** The job's trace has no fixed format; every other type has exactly one. */
export const formatMatchesType = (type: ArtifactType, format: ArtifactFormat) => type === "trace" || ARTIFACT_TYPE_FORMATS[type] === format;

const UNIT_SECONDS: Record<string, number> = { s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60, h: 3600, hr: 3600, hour: 3600, d: 86_400, day: 86_400, w: 604_800, wk: 604_800, week: 604_800, mo: 2_592_000, month: 2_592_000, y: 31_557_600, yr: 31_557_600, year: 31_557_600 };

/** GitLab's default_artifacts_expire_in (30 days). */
const DEFAULT_EXPIRE_SECONDS = 30 * 86_400;

/**
 * When an artifact expires, from `expire_in` as GitLab reads it (ChronicDuration: "3 days",
 * "1 week 2 days", "3600", "never"): null for never, undefined when it cannot be read.
 */
export function expireAt(expireIn: string | undefined, now = new Date()): Date | null | undefined {
  const text = (expireIn ?? "").trim().toLowerCase();
  if (text === "") return new Date(now.getTime() + DEFAULT_EXPIRE_SECONDS * 1000);
  if (text === "never") return null;
  if (/^\d+$/.test(text)) return new Date(now.getTime() + Number(text) * 1000);
  let seconds = 0;
  const rest = text.replace(/(\d+(?:\.\d+)?)\s*([a-z]+?)s?\b(?:\s*(?:and|,)\s*)?/g, (_m, n: string, unit: string) => {
    const factor = UNIT_SECONDS[unit];
    if (factor === undefined) return "!";
    seconds += Number(n) * factor;
    return "";
  });
  if (rest.trim() !== "" || seconds <= 0 || !Number.isFinite(seconds) || seconds > 100 * 31_557_600) return undefined;
  return new Date(now.getTime() + seconds * 1000);
}
