import type { CommitData } from "@collab/git";
import { fileHeaders, gitlabTime, headerValue, presentCommit } from "./content.entity";

const commit: CommitData = {
  id: "a".repeat(40),
  short_id: "aaaaaaaa",
  title: "Add",
  message: "Add\n\nSigned-off-by: A <a@example.com>\n",
  parent_ids: [],
  author_name: "A",
  author_email: "a@example.com",
  authored_date: "2024-05-01T10:00:00+02:00",
  committer_name: "C",
  committer_email: "c@example.com",
  committed_date: "2024-05-01T10:05:00+02:00",
  created_at: "2024-05-01T10:05:00+02:00",
  trailers: { "Signed-off-by": "A <a@example.com>" },
  extended_trailers: { "Signed-off-by": ["A <a@example.com>"] },
};

describe("content presenters", () => {
  it("present a commit as GitLab's Commit entity, trailers only when read", () => {
    const shown = presentCommit(commit, "http://x/g/p");
    expect(shown).toMatchObject({ created_at: "2024-05-01T10:05:00.000+02:00", authored_date: "2024-05-01T10:00:00.000+02:00", web_url: `http://x/g/p/-/commit/${commit.id}` });
    expect(shown.trailers).toEqual({ "Signed-off-by": "A <a@example.com>" });
    expect(presentCommit(commit, "http://x/g/p", { trailers: false })).toMatchObject({ trailers: {}, extended_trailers: {} });
    expect(gitlabTime("2024-05-01T10:05:00.123Z")).toBe("2024-05-01T10:05:00.123Z");
  });

  it("name the file headers as GitLab's set_http_headers, any path a header can hold", () => {
    const headers = fileHeaders({ file_name: "été\n.md", file_path: "d/été\n.md", size: 3, content_sha256: "s", ref: "main", blob_id: "b", commit_id: "c", last_commit_id: "l", execute_filemode: false });
    expect(Object.keys(headers)).toEqual([
      "X-Gitlab-File-Name",
      "X-Gitlab-File-Path",
      "X-Gitlab-Size",
      "X-Gitlab-Encoding",
      "X-Gitlab-Content-Sha256",
      "X-Gitlab-Ref",
      "X-Gitlab-Blob-Id",
      "X-Gitlab-Commit-Id",
      "X-Gitlab-Last-Commit-Id",
      "X-Gitlab-Execute-Filemode",
    ]);
    expect(headers["X-Gitlab-File-Name"]).toBe(headerValue("été\n.md"));
    expect(Buffer.from(headers["X-Gitlab-File-Name"], "latin1").toString("utf8")).toBe("été%0A.md");
    expect(headers["X-Gitlab-Execute-Filemode"]).toBe("false");
  });
});
