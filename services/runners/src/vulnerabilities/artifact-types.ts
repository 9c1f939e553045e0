/**
 * GitLab's job artifact file types and formats (Ci::JobArtifact.file_types / file_formats), and
 * the format each type must have (TYPE_AND_FORMAT_PAIRS).
 */
const PAIRS = {
  archive: "zip",
  metadata: "gzip",
  trace: "raw",
  junit: "gzip",
  sast: "raw",
  dependency_scanning: "raw",
  container_scanning: "raw",
  dast: "raw",
  codequality: "raw",
  license_scanning: "raw",
  performance: "raw",
  metrics: "gzip",
  metrics_referee: "gzip",
  network_referee: "gzip",
  lsif: "zip",
  dotenv: "gzip",
  cobertura: "gzip",
  terraform: "raw",
  accessibility: "raw",
  cluster_applications: "gzip",
  secret_detection: "raw",
  requirements: "raw",
  coverage_fuzzing: "raw",
  browser_performance: "raw",
  load_performance: "raw",
  api_fuzzing: "raw",
  cluster_image_scanning: "raw",
  cyclonedx: "gzip",
  requirements_v2: "raw",
  annotations: "gzip",
  repository_xray: "gzip",
  jacoco: "gzip",
} as const;

export const ARTIFACT_TYPES = Object.keys(PAIRS) as [keyof typeof PAIRS, ...(keyof typeof PAIRS)[]];
export const ARTIFACT_FORMATS = ["raw", "zip", "gzip"] as const;

/** The job's trace has no fixed format; every other type has exactly one. */
export const formatMatchesType = (type: keyof typeof PAIRS, format: (typeof ARTIFACT_FORMATS)[number]) => type === "trace" || PAIRS[type] === format;

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
