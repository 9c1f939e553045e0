import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Runners } from "@collab/runners-contract";
import { Snippets } from "@collab/snippets-contract";
import { describeEvent } from "./notifier.consumers";

const project = { id: 7, name: "app", path_with_namespace: "team/app", web_url: "http://h/team/app", group_ids: [1], default_branch: "main" };

describe("notifier event descriptions", () => {
  test("issues pick issues_events or confidential_issues_events; the message links the issue", () => {
    const open = describeEvent("discord", Issues.events.issueOpened.name, { id: 1, iid: 3, project_id: 7, actor_id: 2, title: "Bug", confidential: false })!;
    expect(open.kind).toBe("issues_events");
    expect(open.build(project, "Ann", "2026-01-01T00:00:00.000Z")).toMatchObject({ content: "[team/app] Issue #3 opened by Ann", embeds: [{ url: "http://h/team/app/-/issues/3", title: "#3 Bug" }] });
    expect(describeEvent("discord", Issues.events.issueClosed.name, { id: 1, iid: 3, project_id: 7, actor_id: 2, title: "Bug", confidential: true })!.kind).toBe("confidential_issues_events");
  });

  test("system notes are skipped; internal notes are confidential", () => {
    const note = { id: 9, noteable_type: "Issue", noteable_id: 30, noteable_iid: 3, noteable_title: "Bug", noteable_confidential: false, project_id: 7, author_id: 2, body: "hi", internal: false, system: false };
    expect(describeEvent("discord", Issues.events.noteCreated.name, { ...note, system: true })).toBeNull();
    expect(describeEvent("discord", Issues.events.noteCreated.name, { ...note, internal: true })!.kind).toBe("confidential_note_events");
    expect(describeEvent("discord", Issues.events.noteCreated.name, note)!.build(project, "Ann", "t")).toMatchObject({ embeds: [{ url: "http://h/team/app/-/issues/3#note_9", description: "hi" }] });
  });

  test("a note on a project snippet links the snippet ($id); one on an epic (a group's, no project) is not a project's to tell", () => {
    const note = { id: 9, noteable_type: "Snippet", noteable_id: 4, noteable_iid: null, noteable_title: "Setup script", noteable_confidential: false, project_id: 7, author_id: 2, body: "hi", internal: false, system: false };
    const described = describeEvent("discord", Snippets.events.noteCreated.name, note)!;
    expect(described.kind).toBe("note_events");
    expect(described.build(project, "Ann", "t")).toMatchObject({ content: "[team/app] Ann commented on snippet $4", embeds: [{ url: "http://h/team/app/-/snippets/4#note_9", title: "Setup script" }] });
    expect(describeEvent("discord", Issues.events.epicNoteCreated.name, { ...note, noteable_type: "Epic", project_id: null, group_id: 1 })).toBeNull();
  });

  test("a note on a commit links the commit and names its short sha", () => {
    const sha = "0123456789abcdef0123456789abcdef01234567";
    const note = { id: 9, noteable_type: "Commit", noteable_id: null, noteable_iid: null, commit_id: sha, noteable_title: "Fix totals", noteable_confidential: false, project_id: 7, author_id: 2, body: "hi", internal: false, system: false };
    const described = describeEvent("discord", MergeRequests.events.noteCreated.name, note)!;
    expect(described.kind).toBe("note_events");
    expect(described.build(project, "Ann", "t")).toMatchObject({ content: "[team/app] Ann commented on commit 01234567", embeds: [{ url: `http://h/team/app/-/commit/${sha}#note_9` }] });
  });

  test("pipelines: branch filter on branches, none on tags; the mail names pipeline, status, ref and short sha", () => {
    const p = { pipeline_id: 5, project_id: 7, ref: "main", tag: false, sha: "0123456789abcdef", status: "failed", user_id: null };
    const mail = describeEvent("pipelines-email", Runners.events.pipelineFinished.name, p)!;
    expect(mail).toMatchObject({ kind: "pipeline_events", branch: "main", pipelineStatus: "failed", actorId: null });
    expect(mail.build(project, "Someone", "t")).toMatchObject({ subject: "app | Failed pipeline for main | 01234567" });
    expect(describeEvent("discord", Runners.events.pipelineFinished.name, { ...p, tag: true })!.branch).toBeUndefined();
  });

  test("malformed payloads and unknown pairs describe nothing", () => {
    expect(describeEvent("discord", Issues.events.issueOpened.name, { id: "x" })).toBeNull();
    expect(describeEvent("pipelines-email", Issues.events.issueOpened.name, {})).toBeNull();
    expect(describeEvent("asana", Issues.events.issueOpened.name, {})).toBeNull();
  });
});
