import { commitFirstFile, createBareRepository, gitText, removeRepositoryFolder, runGit } from "@collab/git";
import { ZERO_SHA } from "@collab/repositories-contract";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pushAnnouncements } from "./push-events";

/** Commits `count` files on `branch` from `from` with fast-import; answers the new head. */
async function commitOnto(dir: string, branch: string, from: string, count: number): Promise<string> {
  let stream = "";
  for (let i = 1; i <= count; i++) {
    const msg = `Change ${i}\n\nDetails ${i}\n`;
    stream += `commit refs/heads/${branch}\ncommitter Dev <dev@example.com> ${1700000000 + i} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}`;
    if (i === 1) stream += `from ${from}\n`;
    stream += `M 100644 inline f${i}.txt\ndata 2\n${i}\n\n`;
  }
  await runGit(dir, ["fast-import", "--quiet"], { input: stream });
  return (await gitText(dir, ["rev-parse", `refs/heads/${branch}`])).trim();
}

describe("pushAnnouncements", () => {
  let dir: string;
  let main: string;
  beforeAll(async () => {
    dir = path.join(mkdtempSync(path.join(tmpdir(), "collab-push-events-")), "repo.git");
    await createBareRepository(dir, "main");
    main = (await commitFirstFile(dir, { branch: "main", fileName: "README.md", content: "# x\n", message: "Initial commit", author: { name: "A", email: "a@example.com" } }))!;
  });
  afterAll(() => removeRepositoryFolder(path.dirname(dir)));

  const project = { id: 7, path_with_namespace: "group/proj" };
  const pusher = { id: 3, username: "alice" };

  it("announces a new branch with its own commits: the newest 20, oldest first, and their count", async () => {
    const head = await commitOnto(dir, "topic", main, 25);
    const [event] = await pushAnnouncements(dir, [{ oldSha: ZERO_SHA, newSha: head, ref: "refs/heads/topic" }], project, pusher, "http://collab.test");
    const [name, payload] = event as unknown as [string, Record<string, any>];
    expect(name).toBe("repositories.branch.pushed");
    expect(payload).toMatchObject({ projectId: 7, branch: "topic", ref: "refs/heads/topic", before: ZERO_SHA, after: head, userId: 3, totalCommitsCount: 25, commitCount: 25, commitTitle: "Change 25" });
    expect(payload.commits).toHaveLength(20);
    expect(payload.commits[0]).toMatchObject({ title: "Change 6", message: "Change 6\n\nDetails 6\n", author: { name: "Dev", email: "dev@example.com" }, timestamp: "2023-11-14T22:13:26+00:00" });
    expect(payload.commits[19]).toMatchObject({ id: head, url: `http://collab.test/group/proj/-/commit/${head}` });
  });

  it("announces a moved branch with the commits between, a removal with none, and skips refs that did not move", async () => {
    const before = (await gitText(dir, ["rev-parse", "refs/heads/main"])).trim();
    const after = await commitOnto(dir, "main", before, 2);
    const events = await pushAnnouncements(
      dir,
      [
        { oldSha: before, newSha: after, ref: "refs/heads/main" },
        { oldSha: ZERO_SHA, newSha: after, ref: "refs/heads/refused" },
      ],
      project,
      pusher,
      "http://collab.test",
    );
    expect(events.map((e) => (e as unknown as [string, Record<string, any>])[1]).map((p) => [p.branch, p.totalCommitsCount, p.commits.map((c: { title: string }) => c.title)])).toEqual([["main", 2, ["Change 1", "Change 2"]]]);
    await runGit(dir, ["update-ref", "-d", "refs/heads/topic"]);
    const [removed] = await pushAnnouncements(dir, [{ oldSha: after, newSha: ZERO_SHA, ref: "refs/heads/topic" }], project, pusher, "http://collab.test");
    expect((removed as unknown as [string, Record<string, any>])[1]).toMatchObject({ branch: "topic", after: ZERO_SHA, commits: [], totalCommitsCount: 0, commitTitle: "" });
  });
});
