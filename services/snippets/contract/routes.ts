import type { RouteDef } from "@collab/core";
import { awardEmojiRoutes, noteRoutes } from "@collab/notes-contract";
import { SnippetsActions as A } from "./actions";

const P = "/projects/:id/snippets";
/** Reading public snippets needs no sign-in, as in GitLab; lists of one's own snippets do. */
const READ = { auth: "optional" } as const;

export const routes: RouteDef[] = [
  { method: "GET", path: P, action: A.project.list.name, ...READ },
  { method: "POST", path: P, action: A.project.create.name, clientInfo: true },
  { method: "GET", path: `${P}/:snippet_id`, action: A.project.get.name, ...READ },
  { method: "PUT", path: `${P}/:snippet_id`, action: A.project.update.name },
  { method: "DELETE", path: `${P}/:snippet_id`, action: A.project.delete.name },
  { method: "GET", path: `${P}/:snippet_id/raw`, action: A.project.raw.name, ...READ },
  { method: "GET", path: `${P}/:snippet_id/files/:ref/:file_path/raw`, action: A.project.fileRaw.name, ...READ },
  { method: "GET", path: `${P}/:snippet_id/user_agent_detail`, action: A.project.userAgentDetail.name },
  // Notes and discussions: the shared notes routes (signed-in callers only, as in GitLab); project snippets only.
  ...noteRoutes(A, `${P}/:snippet_id`, { resolvable: false }),
  ...awardEmojiRoutes(A.awardEmoji, `${P}/:snippet_id`),

  { method: "GET", path: "/snippets", action: A.personal.mine.name },
  { method: "GET", path: "/snippets/public", action: A.personal.public.name },
  { method: "GET", path: "/snippets/all", action: A.personal.all.name },
  { method: "POST", path: "/snippets", action: A.personal.create.name, clientInfo: true },
  { method: "GET", path: "/snippets/:id", action: A.personal.get.name, ...READ },
  { method: "PUT", path: "/snippets/:id", action: A.personal.update.name },
  { method: "DELETE", path: "/snippets/:id", action: A.personal.delete.name },
  { method: "GET", path: "/snippets/:id/raw", action: A.personal.raw.name, ...READ },
  { method: "GET", path: "/snippets/:id/files/:ref/:file_path/raw", action: A.personal.fileRaw.name, ...READ },
  { method: "GET", path: "/snippets/:id/user_agent_detail", action: A.personal.userAgentDetail.name },
];
