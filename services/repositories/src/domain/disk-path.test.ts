import { hashedDiskPath } from "./disk-path";

describe("hashedDiskPath", () => {
  it("is GitLab's hashed path of the project id", () => {
    // sha256("1") = 6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b
    expect(hashedDiskPath("project", 1)).toBe("@hashed/6b/86/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b.git");
  });

  it("keeps snippets apart from projects of the same id", () => {
    expect(hashedDiskPath("snippet", 1)).toBe("@snippets/6b/86/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b.git");
    expect(hashedDiskPath("project", 2)).not.toBe(hashedDiskPath("project", 1));
  });
});
