/** GitLab's path rules for groups and projects. */
const PATH = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;

export function pathErrors(path: string): string[] {
  const errors: string[] = [];
  if (path === "") return ["can't be blank"];
  if (!PATH.test(path) || /[.-]$/.test(path) || /\.(git|atom)$/i.test(path))
    errors.push("can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'");
  if (path.length > 255) errors.push("is too long (maximum is 255 characters)");
  return errors;
}

/** Project/group name → path, as GitLab's parameterize does for a name given without a path. */
export function pathFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .replace(/-{2,}/g, "-");
}

const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}\p{Emoji_Presentation}_. +-]*$/u;
export function nameErrors(name: string): string[] {
  if (name.trim() === "") return ["can't be blank"];
  const errors: string[] = [];
  if (!NAME.test(name)) errors.push("can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.");
  if (name.length > 255) errors.push("is too long (maximum is 255 characters)");
  return errors;
}

/** Ruby's Hash#inspect of an errors hash, which GitLab embeds in group save failures. */
export const rubyInspect = (errors: Record<string, string[]>) =>
  `{${Object.entries(errors)
    .map(([k, v]) => `:${k}=>[${v.map((m) => JSON.stringify(m)).join(", ")}]`)
    .join(", ")}}`;
