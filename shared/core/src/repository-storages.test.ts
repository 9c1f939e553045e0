import { parseRepositoryStorages, validRepositoryStorages } from "./repository-storages";

describe("parseRepositoryStorages", () => {
  it("reads name:folder pairs in order, resolving relative folders", () => {
    const storages = parseRepositoryStorages("default:/srv/repos, fast:data/fast", "/app");
    expect([...storages]).toEqual([
      ["default", "/srv/repos"],
      ["fast", "/app/data/fast"],
    ]);
  });

  it("refuses what would route calls ambiguously or nowhere", () => {
    expect(() => parseRepositoryStorages("default:/a,default:/b")).toThrow("named twice");
    expect(() => parseRepositoryStorages("a:/same,b:/same")).toThrow("share the folder");
    expect(() => parseRepositoryStorages("/just/a/folder")).toThrow("not name:/folder");
    expect(() => parseRepositoryStorages("bad name:/x")).toThrow("not a storage name");
    expect(() => parseRepositoryStorages("default:")).toThrow("has no folder");
    expect(() => parseRepositoryStorages(" , ")).toThrow("names no storage");
  });

  it("validates for the configuration", () => {
    expect(validRepositoryStorages("default:./data/repositories")).toBe(true);
    expect(validRepositoryStorages("nope")).toBe(false);
  });
});
