import { ArchiveError, buildArchive, EXPORT_VERSION, exportFilename, readArchive, type ExportGroup, type GroupAttributes } from "./format";
import { groupAttributes } from "./group-attributes.fixture";
import { readTarGz, writeTarGz } from "./tar";

const attrs = groupAttributes;

const tree: ExportGroup[] = [
  {
    id: 10,
    parent_id: null,
    created_at: "2024-01-01T00:00:00.000Z",
    updated_at: "2024-01-02T00:00:00.000Z",
    attributes: attrs("Top", "top", { description: "the top", visibility: "internal", project_creation_level: "maintainer", subgroup_creation_level: "owner", emails_enabled: false }),
    labels: [{ id: 1, title: "bug", color: "#ff0000", description: "Broken", created_at: null, updated_at: null }],
    milestones: [{ id: 2, iid: 1, title: "v1", description: null, state: "closed", due_date: "2024-02-01", start_date: null, created_at: null, updated_at: null }],
    members: [{ id: 3, user_id: 7, username: "alice", access_level: 30, expires_at: null, created_at: null }],
  },
  { id: 12, parent_id: 11, created_at: null, updated_at: null, attributes: attrs("Leaf", "leaf"), labels: [], milestones: [], members: [] },
  { id: 11, parent_id: 10, created_at: null, updated_at: null, attributes: attrs("Sub", "sub"), labels: [{ id: 4, title: "sub-label", color: "#00ff00", description: null, created_at: null, updated_at: null }], milestones: [], members: [] },
];

const files = (archive: Buffer) => new Map(readTarGz(archive, { maxBytes: 1 << 20 }).filter((e) => e.type === "file").map((e) => [e.name, e.data.toString()]));

describe("group export archive", () => {
  it("is laid out as GitLab's NDJSON group export", () => {
    const f = files(buildArchive(tree));
    expect(f.get("VERSION")).toBe(EXPORT_VERSION);
    expect(f.get("tree/groups/_all.ndjson")).toBe("10\n12\n11\n");
    expect(JSON.parse(f.get("tree/groups/10.json")!)).toMatchObject({
      id: 10,
      name: "Top",
      path: "top",
      description: "the top",
      parent_id: null,
      visibility_level: 10,
      project_creation_level: 1,
      subgroup_creation_level: 0,
      emails_disabled: true,
    });
    expect(JSON.parse(f.get("tree/groups/10/labels.ndjson")!)).toMatchObject({ title: "bug", color: "#ff0000", type: "GroupLabel", group_id: 10 });
    expect(JSON.parse(f.get("tree/groups/10/milestones.ndjson")!)).toMatchObject({ title: "v1", state: "closed", iid: 1, due_date: "2024-02-01" });
    expect(JSON.parse(f.get("tree/groups/10/members.ndjson")!)).toMatchObject({ access_level: 30, source_type: "Namespace", user: { id: 7, username: "alice" } });
    expect(f.get("tree/groups/12/labels.ndjson")).toBe("");
  });

  it("reads back what it writes, parents before children", () => {
    const groups = readArchive(buildArchive(tree), { maxBytes: 1 << 20 });
    expect(groups.map((g) => [g.id, g.parent_id])).toEqual([
      [10, null],
      [11, 10],
      [12, 11],
    ]);
    expect(groups[0].attributes).toMatchObject({ name: "Top", visibility: "internal", project_creation_level: "maintainer", subgroup_creation_level: "owner", emails_enabled: false, description: "the top" });
    expect(groups[0].labels).toEqual([{ title: "bug", color: "#ff0000", description: "Broken" }]);
    expect(groups[0].milestones).toEqual([{ title: "v1", description: null, state: "closed", due_date: "2024-02-01", start_date: null }]);
    expect(groups[0].members).toEqual([{ username: "alice", access_level: 30, expires_at: null }]);
    expect(groups[1].labels.map((l) => l.title)).toEqual(["sub-label"]);
  });

  it("names the file as GitLab does", () => {
    expect(exportFilename("top/sub group", new Date("2024-03-05T07:08:09.012Z"))).toBe("2024-03-05_07-08-012_top_sub group_export.tar.gz");
  });

  it("refuses archives without a version, of another version, without a tree or with orphans", () => {
    const base = [...readTarGz(buildArchive(tree), { maxBytes: 1 << 20 })];
    const without = (name: string) => writeTarGz(base.filter((e) => e.name !== name));
    const replacing = (name: string, data: string) => writeTarGz(base.map((e) => (e.name === name ? { ...e, data: Buffer.from(data) } : e)));
    const read = (archive: Buffer) => () => readArchive(archive, { maxBytes: 1 << 20 });
    expect(read(without("VERSION"))).toThrow(new ArchiveError("Invalid archive: VERSION file is missing"));
    expect(read(replacing("VERSION", "0.1.8"))).toThrow("Import version mismatch: Required 0.2.4 but was 0.1.8");
    expect(read(without("tree/groups/_all.ndjson"))).toThrow("tree/groups/_all.ndjson is missing");
    expect(read(without("tree/groups/11.json"))).toThrow("tree/groups/11.json is missing");
    expect(read(replacing("tree/groups/11.json", "{nope"))).toThrow("Invalid JSON in tree/groups/11.json");
    expect(read(replacing("tree/groups/_all.ndjson", "10\n12\n"))).toThrow("group 12 has no parent in the archive");
    expect(read(Buffer.from("plain text"))).toThrow("Invalid archive: not a gzip archive");
  });
});
