/**
 * The usernames a text @mentions, in order, once each (GitLab's user references): not inside code
 * (fenced blocks and inline spans), not an e-mail address, trailing dots left out.
 */
const CODE = /```[\s\S]*?```|`[^`\n]*`/g;
const MENTION = /(?<![\w@./-])@([a-zA-Z0-9_.][a-zA-Z0-9_.-]*)/g;

export function mentionedUsernames(texts: Iterable<string | null | undefined>): string[] {
  const seen = new Map<string, string>();
  for (const text of texts) {
    if (!text) continue;
    for (const m of text.replace(CODE, " ").matchAll(MENTION)) {
      const name = m[1].replace(/[.-]+$/, "");
      if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
    }
  }
  return [...seen.values()];
}
