import { createHash } from "node:crypto";

/**
 * GitLab security reports (SAST and dependency scanning, schema versions 14 and 15) read into
 * findings. Everything is checked before anything is stored: a report that does not follow the
 * schema where this system relies on it is refused as a whole, naming the first fault.
 *
 * What is read of each entry of `vulnerabilities[]`: `name` (v15; v14's `message` otherwise, else
 * "<primary identifier> in <file>"), `description`, `solution`, `severity`, `confidence` (v14),
 * `identifiers[]` (`type`, `name`, `value`, `url`; the first is the primary one), `location`
 * (`file`, `start_line`, `end_line`, `class`, `method`; dependency scanning: `file` and
 * `dependency.package.name`, `dependency.version`), `cvss_vectors[]` (v15) and the scanner (v14
 * puts one on every entry; otherwise `scan.scanner`).
 */

export const REPORT_TYPES = ["sast", "dependency_scanning"] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const SEVERITIES = ["info", "unknown", "low", "medium", "high", "critical"] as const;
export const CONFIDENCES = ["ignore", "unknown", "experimental", "low", "medium", "high", "confirmed"] as const;

/** GitLab's limits on a finding's texts (longer ones are cut, as its parser truncates them). */
export const NAME_MAX = 255;
export const DESCRIPTION_MAX = 15_000;
export const SOLUTION_MAX = 7_000;
/** Nesting a location object may have (jsonb and the CSV presenter recurse over it). */
const LOCATION_DEPTH = 8;

export interface Identifier {
  type: string;
  name: string;
  value: string;
  url: string | null;
}

export interface Finding {
  reportType: ReportType;
  name: string;
  description: string | null;
  solution: string | null;
  severity: (typeof SEVERITIES)[number];
  confidence: (typeof CONFIDENCES)[number] | null;
  identifiers: Identifier[];
  location: Record<string, unknown>;
  file: string | null;
  startLine: number | null;
  endLine: number | null;
  packageName: string | null;
  packageVersion: string | null;
  cvssVectors: { vendor: string; vector: string }[];
  scanner: { id: string; name: string };
  /** SHA-1 of the primary identifier and of the location, the parts of the finding's UUID. */
  primaryIdentifierFingerprint: string;
  locationFingerprint: string;
}

/** A report that cannot be read; the message says where. */
export class ReportError extends Error {}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");
const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

class Reader {
  constructor(private readonly reportType: ReportType) {}

  fail(path: string, problem: string): never {
    throw new ReportError(`Invalid ${this.reportType} report: ${path} ${problem}`);
  }

  object(v: unknown, path: string): Json {
    if (!isObject(v)) this.fail(path, "must be an object");
    return v;
  }

  string(v: unknown, path: string, opts: { optional: true }): string | null;
  string(v: unknown, path: string, opts?: { optional?: false }): string;
  string(v: unknown, path: string, opts: { optional: boolean }): string | null;
  string(v: unknown, path: string, opts: { optional?: boolean } = {}): string | null {
    if (v === undefined || v === null) {
      if (opts.optional) return null;
      this.fail(path, "is missing");
    }
    if (typeof v !== "string") this.fail(path, "must be a string");
    if (v.includes("\u0000")) this.fail(path, "must not contain NUL characters");
    return v;
  }

  /** Non-negative line numbers that fit an integer column. */
  line(v: unknown, path: string): number | null {
    if (v === undefined || v === null) return null;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 2_147_483_647) this.fail(path, "must be a non-negative integer");
    return v;
  }

  oneOf<T extends readonly string[]>(v: unknown, values: T, path: string, aliases: Record<string, T[number]> = {}): T[number] {
    const s = this.string(v, path).toLowerCase();
    const found = values.find((x) => x === s) ?? aliases[s];
    if (!found) this.fail(path, `must be one of ${values.join(", ")}`);
    return found;
  }

  /** Plain JSON values only, no NUL characters, at most LOCATION_DEPTH levels deep. */
  plain(v: unknown, path: string, depth = 0): unknown {
    if (depth > LOCATION_DEPTH) this.fail(path, "is nested too deeply");
    if (typeof v === "string") return this.string(v, path);
    if (Array.isArray(v)) return v.map((x, i) => this.plain(x, `${path}[${i}]`, depth + 1));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [this.string(k, `${path} key`), this.plain(x, `${path}.${k}`, depth + 1)]));
    return v;
  }
}

function readIdentifiers(r: Reader, v: unknown, path: string): Identifier[] {
  if (!Array.isArray(v) || v.length === 0) r.fail(path, "must be a non-empty array");
  return v.map((item, i) => {
    const id = r.object(item, `${path}[${i}]`);
    return {
      type: r.string(id.type, `${path}[${i}].type`),
      name: r.string(id.name, `${path}[${i}].name`),
      value: r.string(id.value, `${path}[${i}].value`),
      url: r.string(id.url, `${path}[${i}].url`, { optional: true }),
    };
  });
}

function readScanner(r: Reader, v: unknown, path: string): { id: string; name: string } {
  const s = r.object(v, path);
  return { id: r.string(s.id, `${path}.id`), name: r.string(s.name, `${path}.name`) };
}

function readFinding(r: Reader, reportType: ReportType, v: unknown, path: string, scanScanner: { id: string; name: string } | null): Finding {
  const entry = r.object(v, path);
  const identifiers = readIdentifiers(r, entry.identifiers, `${path}.identifiers`);
  const location = r.plain(r.object(entry.location ?? {}, `${path}.location`), `${path}.location`) as Json;
  const file = r.string(location.file, `${path}.location.file`, { optional: reportType === "sast" });
  const startLine = r.line(location.start_line, `${path}.location.start_line`);
  const endLine = r.line(location.end_line, `${path}.location.end_line`);
  let packageName: string | null = null;
  let packageVersion: string | null = null;
  if (reportType === "dependency_scanning") {
    const dependency = r.object(location.dependency, `${path}.location.dependency`);
    packageName = r.string(r.object(dependency.package, `${path}.location.dependency.package`).name, `${path}.location.dependency.package.name`);
    packageVersion = r.string(dependency.version, `${path}.location.dependency.version`, { optional: true });
  }
  const scanner = entry.scanner !== undefined ? readScanner(r, entry.scanner, `${path}.scanner`) : scanScanner;
  if (!scanner) r.fail(`${path}.scanner`, "is missing (and the report has no scan.scanner)");
  let cvssVectors: { vendor: string; vector: string }[] = [];
  if (entry.cvss_vectors !== undefined) {
    if (!Array.isArray(entry.cvss_vectors)) r.fail(`${path}.cvss_vectors`, "must be an array");
    cvssVectors = entry.cvss_vectors.map((c, i) => {
      const o = r.object(c, `${path}.cvss_vectors[${i}]`);
      return { vendor: r.string(o.vendor ?? "unknown", `${path}.cvss_vectors[${i}].vendor`), vector: r.string(o.vector, `${path}.cvss_vectors[${i}].vector`) };
    });
  }
  const primary = identifiers[0];
  const explicitName = r.string(entry.name, `${path}.name`, { optional: true }) ?? r.string(entry.message, `${path}.message`, { optional: true });
  const name = explicitName?.trim() || (file ? `${primary.name} in ${file}` : primary.name);
  const description = r.string(entry.description, `${path}.description`, { optional: true });
  const solution = r.string(entry.solution, `${path}.solution`, { optional: true });
  // GitLab's location fingerprints: the file and lines for SAST, the file and package otherwise.
  const locationKey = reportType === "sast" ? `${file ?? ""}:${startLine ?? ""}:${endLine ?? ""}` : `${file}:${packageName}`;
  return {
    reportType,
    name: cut(name, NAME_MAX),
    description: description === null ? null : cut(description, DESCRIPTION_MAX),
    solution: solution === null ? null : cut(solution, SOLUTION_MAX),
    severity: r.oneOf(entry.severity ?? "unknown", SEVERITIES, `${path}.severity`, { undefined: "unknown" }),
    confidence: entry.confidence === undefined || entry.confidence === null ? null : r.oneOf(entry.confidence, CONFIDENCES, `${path}.confidence`, { undefined: "unknown" }),
    identifiers,
    location,
    file,
    startLine,
    endLine,
    packageName,
    packageVersion,
    cvssVectors,
    scanner,
    primaryIdentifierFingerprint: sha1(`${primary.type}:${primary.value}`),
    locationFingerprint: sha1(locationKey),
  };
}

/** Reads a report's bytes; throws ReportError for anything that is not a usable report of that type. */
export function parseReport(reportType: ReportType, bytes: Buffer): Finding[] {
  const r: Reader = new Reader(reportType);
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new ReportError(`Invalid ${reportType} report: the file is not valid JSON`);
  }
  const report = r.object(doc, "the report");
  const version = r.string(report.version, "version");
  if (!/^(14|15)\.\d+\.\d+$/.test(version)) r.fail("version", `${version} is not a supported schema version (14.x or 15.x)`);
  let scanScanner: { id: string; name: string } | null = null;
  if (report.scan !== undefined) {
    const scan = r.object(report.scan, "scan");
    if (scan.type !== undefined && r.string(scan.type, "scan.type") !== reportType) r.fail("scan.type", `is ${String(scan.type)}, not ${reportType}`);
    if (scan.status !== undefined) r.oneOf(scan.status, ["success", "failure"] as const, "scan.status");
    if (scan.scanner !== undefined) scanScanner = readScanner(r, scan.scanner, "scan.scanner");
  } else if (version.startsWith("15.")) {
    r.fail("scan", "is missing");
  }
  if (!Array.isArray(report.vulnerabilities)) r.fail("vulnerabilities", "must be an array");
  return report.vulnerabilities.map((v, i) => readFinding(r, reportType, v, `vulnerabilities[${i}]`, scanScanner));
}

/**
 * A name-based (version 5) UUID: SHA-1 of a namespace and a name, as RFC 4122 §4.3 and GitLab's
 * Gitlab::UUID.v5. The namespace is this system's own.
 */
const UUID_NAMESPACE = Buffer.from("6f1c2a3e8d4b4f0e9a7c5b3d2e1f0a9b", "hex");
export function uuidV5(name: string): string {
  const hash = createHash("sha1").update(UUID_NAMESPACE).update(name, "utf8").digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The finding's identity in its project (GitLab's VulnerabilityUUID): type, primary identifier, location, project. */
export const findingUuid = (f: Pick<Finding, "reportType" | "primaryIdentifierFingerprint" | "locationFingerprint">, projectId: number) =>
  uuidV5(`${f.reportType}-${f.primaryIdentifierFingerprint}-${f.locationFingerprint}-${projectId}`);
