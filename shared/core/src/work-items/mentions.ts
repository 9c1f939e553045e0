/**
 * Users a text mentions, as GitLab's reference extractor finds them for to-dos: `@username` after
 * the start or a character that is no part of a name, outside code (fenced blocks and inline
 * code). A user named at the start of a line, alone or in a leading run of names
 * (`@alice @bob please look`), is directly addressed; the others are mentioned. `@all` and other
 * group-wide mentions are no user's.
 */
const USERNAME = String.raw`[a-zA-Z0-9_][a-zA-Z0-9_.-]*`;
const MENTION = new RegExp(String.raw`(^|[^a-zA-Z0-9_.\-/@\`])@(${USERNAME})`, "g");
const LEADING_RUN = new RegExp(String.raw`^\s*((?:@${USERNAME}[\s,]*)+)`);
const GROUP_WIDE = new Set(["all"]);

/** The text without fenced code blocks and inline code, where mentions do not count. */
const withoutCode = (text: string) => text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?(^\1[^\n]*$|$(?![\s\S]))/gm, "").replace(/`[^`\n]*`/g, "");

/** A name as GitLab keeps it: a trailing dot or dash ends the sentence, not the name. */
const trimmed = (name: string) => name.replace(/[.-]+$/, "");

export interface Mentions {
  /** Lowercased usernames named at the start of a line. */
  directlyAddressed: string[];
  /** Lowercased usernames mentioned elsewhere only. */
  mentioned: string[];
}

export function extractMentions(text: string | null | undefined): Mentions {
  if (!text) return { directlyAddressed: [], mentioned: [] };
  const body = withoutCode(text);
  const direct = new Set<string>();
  const all = new Set<string>();
  for (const line of body.split("\n")) {
    const run = LEADING_RUN.exec(line);
    if (run) for (const m of run[1].matchAll(new RegExp(`@(${USERNAME})`, "g"))) direct.add(trimmed(m[1]).toLowerCase());
  }
  for (const m of body.matchAll(MENTION)) all.add(trimmed(m[2]).toLowerCase());
  const keep = (name: string) => name.length > 0 && !GROUP_WIDE.has(name);
  return { directlyAddressed: [...direct].filter(keep), mentioned: [...all].filter((n) => keep(n) && !direct.has(n)) };
}
