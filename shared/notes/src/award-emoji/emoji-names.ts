import github from "emojibase-data/en/shortcodes/github.json";
import joypixels from "emojibase-data/en/shortcodes/joypixels.json";

/**
 * The emoji names GitLab accepts (TanukiEmoji's alpha codes: GitHub's gemoji aliases and the
 * JoyPixels/Emoji One codes GitLab used to ship), from emojibase's shortcode sets.
 */
const NAMES = new Set<string>([github, joypixels].flatMap((set) => Object.values(set as Record<string, string | string[]>).flat()));

/** GitLab stores the aliases of its vote emoji under their main names, which the vote counts read. */
const ALIASES: Record<string, string> = { "+1": "thumbsup", "-1": "thumbsdown" };

export const UPVOTE = "thumbsup";
export const DOWNVOTE = "thumbsdown";

/** The name to store for an awarded emoji (without colons), or null when it names none. */
export function emojiName(input: string): string | null {
  const name = input.trim();
  return NAMES.has(name) ? (ALIASES[name] ?? name) : null;
}
