import { findingUuid, parseReport, ReportError, uuidV5 } from "./report";

const sast = (vulnerabilities: unknown[], extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      version: "15.0.7",
      scan: { type: "sast", status: "success", scanner: { id: "semgrep", name: "Semgrep", vendor: { name: "GitLab" } }, analyzer: { id: "semgrep", name: "Semgrep" } },
      vulnerabilities,
      ...extra,
    }),
  );

const sqlInjection = {
  id: "3b5c6c1c-8d0c-4e6a-9a0e-7d3f8c1b2a10",
  name: "Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
  description: "SQL built from user input",
  severity: "High",
  solution: "Use bound parameters",
  identifiers: [
    { type: "semgrep_id", name: "python.sqli", value: "python.sqli" },
    { type: "cwe", name: "CWE-89", value: "89", url: "https://cwe.mitre.org/data/definitions/89.html" },
    { type: "owasp", name: "A1:2017 - Injection", value: "A1:2017" },
  ],
  location: { file: "app/db.py", start_line: 12, end_line: 14 },
  cvss_vectors: [{ vendor: "GitLab", vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }],
};

const fails = (type: "sast" | "dependency_scanning", body: Buffer | string) => {
  try {
    parseReport(type, Buffer.isBuffer(body) ? body : Buffer.from(body));
  } catch (err) {
    expect(err).toBeInstanceOf(ReportError);
    return (err as Error).message;
  }
  throw new Error("the report was accepted");
};

describe("parseReport", () => {
  it("reads a SAST report (schema 15): texts, lowercase severity, identifiers in order, location, scanner of the scan, CVSS vectors", () => {
    const [f] = parseReport("sast", sast([sqlInjection]));
    expect(f).toMatchObject({
      reportType: "sast",
      name: sqlInjection.name,
      description: "SQL built from user input",
      solution: "Use bound parameters",
      severity: "high",
      confidence: null,
      file: "app/db.py",
      startLine: 12,
      endLine: 14,
      packageName: null,
      scanner: { id: "semgrep", name: "Semgrep" },
      location: { file: "app/db.py", start_line: 12, end_line: 14 },
      cvssVectors: [{ vendor: "GitLab", vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }],
    });
    expect(f.identifiers.map((i) => [i.type, i.name, i.url])).toEqual([
      ["semgrep_id", "python.sqli", null],
      ["cwe", "CWE-89", "https://cwe.mitre.org/data/definitions/89.html"],
      ["owasp", "A1:2017 - Injection", null],
    ]);
  });

  it("reads schema 14: message as the name, confidence, a scanner on each entry, no scan needed", () => {
    const report = {
      version: "14.1.2",
      vulnerabilities: [
        {
          category: "sast",
          message: "Possible SQL injection",
          cve: "x",
          severity: "Medium",
          confidence: "High",
          scanner: { id: "brakeman", name: "Brakeman" },
          identifiers: [{ type: "brakeman_warning_code", name: "Brakeman Warning Code 0", value: "0" }],
          location: { file: "main.rb", class: "User", method: "index", start_line: 3 },
        },
      ],
    };
    const [f] = parseReport("sast", Buffer.from(JSON.stringify(report)));
    expect(f).toMatchObject({ name: "Possible SQL injection", severity: "medium", confidence: "high", scanner: { id: "brakeman", name: "Brakeman" }, startLine: 3, endLine: null });
  });

  it("names a finding without name or message after its primary identifier and file", () => {
    const [f] = parseReport("sast", sast([{ ...sqlInjection, name: undefined }]));
    expect(f.name).toBe("python.sqli in app/db.py");
  });

  it("reads a dependency scanning report: the package and version of the location", () => {
    const report = {
      version: "15.0.0",
      scan: { type: "dependency_scanning", status: "success", scanner: { id: "gemnasium", name: "Gemnasium" } },
      vulnerabilities: [
        {
          id: "a",
          name: "Denial of Service in rack",
          severity: "Critical",
          identifiers: [
            { type: "gemnasium", name: "Gemnasium-20daa17a", value: "20daa17a" },
            { type: "cve", name: "CVE-2022-30122", value: "CVE-2022-30122" },
          ],
          location: { file: "Gemfile.lock", dependency: { package: { name: "rack" }, version: "2.2.3" } },
        },
      ],
      dependency_files: [],
    };
    const [f] = parseReport("dependency_scanning", Buffer.from(JSON.stringify(report)));
    expect(f).toMatchObject({ severity: "critical", file: "Gemfile.lock", packageName: "rack", packageVersion: "2.2.3", scanner: { name: "Gemnasium" } });
  });

  it("gives the same finding the same UUID in a project, another one elsewhere or at another place", () => {
    const [a] = parseReport("sast", sast([sqlInjection]));
    const [b] = parseReport("sast", sast([{ ...sqlInjection, description: "changed", severity: "Low" }]));
    const [moved] = parseReport("sast", sast([{ ...sqlInjection, location: { file: "app/db.py", start_line: 20, end_line: 22 } }]));
    expect(findingUuid(a, 1)).toBe(findingUuid(b, 1));
    expect(findingUuid(a, 1)).not.toBe(findingUuid(a, 2));
    expect(findingUuid(moved, 1)).not.toBe(findingUuid(a, 1));
    expect(uuidV5("x")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("cuts overlong names and descriptions as GitLab's parser does", () => {
    const [f] = parseReport("sast", sast([{ ...sqlInjection, name: "n".repeat(300), description: "d".repeat(20_000) }]));
    expect(f.name).toHaveLength(255);
    expect(f.description).toHaveLength(15_000);
  });

  it("refuses reports that do not follow the schema, naming the fault", () => {
    expect(fails("sast", "{not json")).toBe("Invalid sast report: the file is not valid JSON");
    expect(fails("sast", "[]")).toBe("Invalid sast report: the report must be an object");
    expect(fails("sast", JSON.stringify({ vulnerabilities: [] }))).toBe("Invalid sast report: version is missing");
    expect(fails("sast", JSON.stringify({ version: "2.0", vulnerabilities: [] }))).toBe("Invalid sast report: version 2.0 is not a supported schema version (14.x or 15.x)");
    expect(fails("sast", JSON.stringify({ version: "15.0.0", vulnerabilities: [] }))).toBe("Invalid sast report: scan is missing");
    expect(fails("sast", sast([], { vulnerabilities: {} }))).toBe("Invalid sast report: vulnerabilities must be an array");
    expect(fails("sast", sast([], { scan: { type: "dast", scanner: { id: "x", name: "X" } } }))).toBe("Invalid sast report: scan.type is dast, not sast");
    expect(fails("sast", sast([{ ...sqlInjection, identifiers: [] }]))).toBe("Invalid sast report: vulnerabilities[0].identifiers must be a non-empty array");
    expect(fails("sast", sast([sqlInjection, { ...sqlInjection, severity: "Severe" }]))).toBe(
      "Invalid sast report: vulnerabilities[1].severity must be one of info, unknown, low, medium, high, critical",
    );
    expect(fails("sast", sast([{ ...sqlInjection, location: { file: "a", start_line: "12" } }]))).toBe("Invalid sast report: vulnerabilities[0].location.start_line must be a non-negative integer");
    expect(fails("sast", sast([{ ...sqlInjection, identifiers: [{ type: "cwe", name: "CWE-89" }] }]))).toBe("Invalid sast report: vulnerabilities[0].identifiers[0].value is missing");
    expect(fails("sast", sast([{ ...sqlInjection, description: "a\u0000b" }]))).toBe("Invalid sast report: vulnerabilities[0].description must not contain NUL characters");
    let deep: Record<string, unknown> = {};
    const location = { file: "a", extra: deep };
    for (let i = 0; i < 20; i++) deep = (deep.x = {}) as Record<string, unknown>;
    expect(fails("sast", sast([{ ...sqlInjection, location }]))).toMatch(/^Invalid sast report: vulnerabilities\[0\]\.location\.extra(\.x)+ is nested too deeply$/);
    expect(fails("dependency_scanning", Buffer.from(JSON.stringify({ version: "15.0.0", scan: { type: "dependency_scanning" }, vulnerabilities: [{ ...sqlInjection, scanner: { id: "g", name: "G" } }] })))).toBe(
      "Invalid dependency_scanning report: vulnerabilities[0].location.dependency must be an object",
    );
    expect(fails("sast", Buffer.from(JSON.stringify({ version: "15.0.0", scan: { type: "sast" }, vulnerabilities: [sqlInjection] })))).toBe(
      "Invalid sast report: vulnerabilities[0].scanner is missing (and the report has no scan.scanner)",
    );
  });
});
