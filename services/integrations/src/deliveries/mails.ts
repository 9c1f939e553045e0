import { pickFields } from "@collab/core";
import { Repositories } from "@collab/repositories-contract";
import { Runners } from "@collab/runners-contract";
import { escapeHtml } from "./chat-message";
import { byName, describer, type Describer } from "./describer";
import type { ProjectFacts } from "./targets";

/**
 * The integrations that mail through the one mailer: pipeline status emails (GitLab's
 * PipelinesEmail and Emails::Pipelines) and emails on push (EmailsOnPush, EmailsOnPushWorker and
 * Gitlab::Email::Message::RepositoryPush). The worker adds the recipients, and the sender when
 * send_from_committer_email allows the pusher's own address.
 */
export const PIPELINE_MAIL_SLUG = "pipelines-email";
export const PUSH_MAIL_SLUG = "emails-on-push";
export const isMailSlug = (slug: string) => slug === PIPELINE_MAIL_SLUG || slug === PUSH_MAIL_SLUG;

/** A mail as a delivery keeps it: sent to each recipient alone. */
export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
  from?: { name: string; address?: string };
  replyTo?: string;
  headers: Record<string, string>;
}

const ZERO = "0".repeat(40);
const link = (text: string, url: string) => `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;
const path = (ref: string) => ref.split("/").map(encodeURIComponent).join("/");

/** GitLab's add_project_headers. */
const projectHeaders = (project: ProjectFacts): Record<string, string> => ({
  "X-GitLab-Project": project.name,
  "X-GitLab-Project-Id": String(project.id),
  "X-GitLab-Project-Path": project.path_with_namespace,
});

/** One line per paragraph, in text and in HTML (each given as [text, html]). */
function render(paragraphs: [string, string][]): { text: string; html: string } {
  return { text: paragraphs.map(([t]) => t).join("\n\n"), html: paragraphs.map(([, h]) => `<p>${h}</p>`).join("\n") };
}

const pipelineFields = pickFields("pipeline_id", "project_id", "ref", "tag", "sha", "status", "user_id");

/**
 * A finished pipeline's mail: "Failed pipeline for main" (or Successful), after the project's name
 * and before the short sha, as Notify#subject joins them. Pipelines of tags are filtered by
 * branches_to_be_notified too (PipelinesEmail has no tag exception, unlike the chat notifiers).
 */
const pipelineMail = describer(Runners.events.pipelineFinished, pipelineFields, (p) => ({
  projectId: p.project_id,
  kind: "pipeline_events",
  actorId: p.user_id,
  branch: p.ref,
  pipelineStatus: p.status,
  build: (project, author): Omit<MailMessage, "to"> => {
    const status = p.status === "failed" ? "Failed" : "Successful";
    const pipelineUrl = `${project.web_url}/-/pipelines/${p.pipeline_id}`;
    const refUrl = `${project.web_url}/-/${p.tag ? "tree" : "commits"}/${path(p.ref)}`;
    const commitUrl = `${project.web_url}/-/commit/${p.sha}`;
    return {
      subject: [project.name, `${status} pipeline for ${p.ref}`, p.sha.slice(0, 8)].join(" | "),
      ...render([
        [`Your pipeline has ${p.status === "failed" ? "failed" : "passed"}.`, escapeHtml(`Your pipeline has ${p.status === "failed" ? "failed" : "passed"}.`)],
        [`Project: ${project.path_with_namespace} ( ${project.web_url} )`, `Project: ${link(project.path_with_namespace, project.web_url)}`],
        [`${p.tag ? "Tag" : "Branch"}: ${p.ref} ( ${refUrl} )`, `${p.tag ? "Tag" : "Branch"}: ${link(p.ref, refUrl)}`],
        [`Commit: ${p.sha.slice(0, 8)} ( ${commitUrl} )`, `Commit: ${link(p.sha.slice(0, 8), commitUrl)}`],
        [`Pipeline #${p.pipeline_id} ( ${pipelineUrl} ) triggered by ${author}`, `Pipeline ${link(`#${p.pipeline_id}`, pipelineUrl)} triggered by ${escapeHtml(author)}`],
      ]),
      headers: { ...projectHeaders(project), "X-GitLab-Pipeline-Id": String(p.pipeline_id), "X-GitLab-Pipeline-Ref": p.ref, "X-GitLab-Pipeline-Status": p.status },
    };
  },
}));

/** What a push mail says of one ref change (RepositoryPush#subject and the repository_push_email template). */
interface RefChange {
  refType: "branch" | "tag";
  ref: string;
  before: string;
  after: string;
  /** How many commits the push brought, and the newest of them (at most 20, oldest first) as its event carries them. */
  commitCount?: number;
  commits?: readonly { id: string; message: string; title: string }[];
}

const actionOf = (c: Pick<RefChange, "before" | "after">) => (c.before === ZERO ? "create" : c.after === ZERO ? "delete" : "push");

/**
 * Whether a ref change is mailed: not a push that adds no commit (a branch moved back, where GitLab
 * mails the commits it removed, which the event does not name), nor a tag moved in place.
 */
export const mailable = (c: RefChange) => actionOf(c) !== "push" || (c.refType === "branch" && (c.commitCount ?? 0) > 0);

export function pushMail(project: ProjectFacts, author: { name: string; username: string }, c: RefChange): Omit<MailMessage, "to"> {
  const action = actionOf(c);
  const count = c.commitCount ?? 0;
  const actionName = action === "create" ? "pushed new" : action === "delete" ? "deleted" : "pushed to";
  const subject =
    action === "push"
      ? `[Git][${project.path_with_namespace}][${c.ref}] ${count > 1 ? `${count} commits: ` : ""}${c.commits?.at(-1)?.title ?? ""}`
      : `[Git][${project.path_with_namespace}] ${actionName[0].toUpperCase()}${actionName.slice(1)} ${c.refType} ${c.ref}`;
  const commitUrl = `${project.web_url}/-/commit/${c.after}`;
  const targetUrl = action === "delete" ? null : action === "push" ? (count > 1 ? `${project.web_url}/-/compare/${c.before}...${c.after}` : commitUrl) : `${project.web_url}/-/tree/${path(c.ref)}`;
  const paragraphs: [string, string][] = [[`${author.name} ${actionName} ${c.refType} ${c.ref} at ${project.path_with_namespace}`, escapeHtml(`${author.name} ${actionName} ${c.refType} ${c.ref} at ${project.path_with_namespace}`)]];
  if (action === "push") {
    // Each commit the event carries, newest last; a push of more names how many more there were.
    const commits = c.commits ?? [];
    const earlier = count - commits.length;
    const more = earlier > 0 ? [[`(${earlier} earlier commit${earlier > 1 ? "s" : ""} in this push)`, escapeHtml(`(${earlier} earlier commit${earlier > 1 ? "s" : ""} in this push)`)] as [string, string]] : [];
    const listed = commits.map((commit): [string, string] => {
      const url = `${project.web_url}/-/commit/${commit.id}`;
      const message = commit.message.trim();
      return [`${commit.id.slice(0, 8)} ( ${url} )\n${message}\n- - - - -`, `${link(commit.id.slice(0, 8), url)}<br>${escapeHtml(message).replace(/\n/g, "<br>")}<br>- - - - -`];
    });
    paragraphs.push(["Commits:", "Commits:"], ...more, ...listed);
  }
  if (targetUrl) paragraphs.push([`View it on GitLab: ${targetUrl}`, link("View it on GitLab", targetUrl)]);
  return {
    subject,
    ...render(paragraphs),
    from: { name: `${author.name} (@${author.username})` },
    headers: { ...projectHeaders(project), "X-GitLab-Author": author.username },
  };
}

/** The pusher as the mail names them; a deleted user is "Someone". */
const pusher = (author: string, user: { name: string; username: string } | undefined) => user ?? { name: author, username: "ghost" };

const branchPush = describer(Repositories.events.branchPushed, pickFields("projectId", "branch", "before", "after", "userId", "totalCommitsCount", "commits"), (p) => {
  const change: RefChange = { refType: "branch", ref: p.branch, before: p.before, after: p.after, commitCount: p.totalCommitsCount, commits: p.commits };
  if (!mailable(change)) return null;
  return { projectId: p.projectId, kind: "push_events", actorId: p.userId, branch: p.branch, build: (project, author, _at, user) => pushMail(project, pusher(author, user), change) };
});
const tagPush = describer(Repositories.events.tagPushed, pickFields("projectId", "tag", "before", "after", "userId"), (p) => {
  const change: RefChange = { refType: "tag", ref: p.tag, before: p.before, after: p.after };
  if (!mailable(change)) return null;
  // Tag pushes are mailed whatever branches_to_be_notified says (EmailsOnPush#notify_for_ref?).
  return { projectId: p.projectId, kind: "tag_push_events", actorId: p.userId, build: (project, author, _at, user) => pushMail(project, pusher(author, user), change) };
});

export const MAIL_EVENTS: Record<string, Record<string, Describer>> = {
  [PIPELINE_MAIL_SLUG]: byName(PIPELINE_MAIL_SLUG, [pipelineMail]),
  [PUSH_MAIL_SLUG]: byName(PUSH_MAIL_SLUG, [branchPush, tagPush]),
};

/** recipients: comma-, space- or newline-separated addresses, each once. */
export const recipientsOf = (properties: Record<string, unknown>) => [...new Set(String(properties.recipients ?? "").split(/[\s,]+/).filter(Boolean))];

/**
 * GitLab's Notify.allowed_email_domains: the instance's host and its parent domains above the top
 * level one; a user's own address is a sender only in one of them (can_send_from_user_email?).
 */
export function canSendFrom(email: string, host: string): boolean {
  const parts = host.toLowerCase().split(".");
  const allowed: string[] = [];
  do {
    allowed.push(parts.join("."));
    parts.shift();
  } while (parts.length > 1);
  return allowed.includes(email.split("@").pop()!.toLowerCase());
}
