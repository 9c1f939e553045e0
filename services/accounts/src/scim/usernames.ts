/**
 * Gitlab::Auth::ExternalUsernameSanitizer over Namespace.clean_path: the username an identity
 * provider's userName becomes — an e-mail address's local part, only letters, digits, `_`, `-` and
 * `.`, no leading or trailing separator, no `.git`/`.atom` ending, no runs of separators; "blank"
 * when nothing is left. uniqueUsername then appends 1, 2, … until it is free (Uniquify).
 */
export function sanitizeUsername(external: string): string {
  let path = external.replace(/@[\s\S]*$/, "").replace(/[^a-zA-Z0-9_\-.]/g, "");
  for (let previous = ""; previous !== path; ) {
    previous = path;
    path = path.replace(/\.git$/, "").replace(/\.atom$/, "").replace(/\.$/, "");
  }
  path = path
    .replace(/^[_.-]+/, "")
    .replace(/[_.-]+$/, "")
    .replace(/([_.-])[_.-]+/g, "$1")
    .slice(0, 200);
  return path === "" ? "blank" : path;
}

/** The first of `base`, `base1`, `base2`, … that `isFree` accepts (at most `attempts` tried). */
export async function uniqueUsername(base: string, isFree: (candidate: string) => Promise<boolean>, attempts = 100): Promise<string | undefined> {
  for (let n = 0; n < attempts; n++) {
    const candidate = n === 0 ? base : `${base}${n}`;
    if (await isFree(candidate)) return candidate;
  }
  return undefined;
}
