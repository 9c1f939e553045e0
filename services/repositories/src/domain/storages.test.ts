import { LocalStorages } from "./storages";

describe("LocalStorages", () => {
  const storages = new LocalStorages(() => "default:/srv/a,other:/srv/b");

  it("serves the storages its configuration names", () => {
    expect(storages.names).toEqual(["default", "other"]);
    expect(storages.serves("other")).toBe(true);
    expect(storages.serves("elsewhere")).toBe(false);
  });

  it("places a repository under its storage's folder, and answers 503 for another storage", () => {
    expect(storages.folderOf("other", "@hashed/ab/cd/x.git")).toBe("/srv/b/@hashed/ab/cd/x.git");
    expect(() => storages.folderOf("elsewhere", "x.git")).toThrow(expect.objectContaining({ code: 503 }));
    expect(() => storages.folderOf("default", "../escape.git")).toThrow("leaves its storage");
  });
});
