import path from "node:path";

/**
 * REPOSITORY_STORAGES: the git storages a repositories process serves, `name:/folder` pairs
 * separated by commas (`default:/var/opt/repos,fast:/mnt/nvme/repos`), as GitLab's
 * `git_data_dirs` name Gitaly's storages. Relative folders are resolved against the working
 * directory. Answers the storages by name, in the order given, or throws naming the fault.
 */
export function parseRepositoryStorages(value: string, cwd: string = process.cwd()): Map<string, string> {
  const storages = new Map<string, string>();
  const folders = new Set<string>();
  for (const entry of value.split(",").map((s) => s.trim()).filter(Boolean)) {
    const colon = entry.indexOf(":");
    if (colon <= 0) throw new Error(`"${entry}" is not name:/folder`);
    const name = entry.slice(0, colon).trim();
    const folder = entry.slice(colon + 1).trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) throw new Error(`"${name}" is not a storage name (letters, digits, _ . -)`);
    if (!folder) throw new Error(`storage ${name} has no folder`);
    if (storages.has(name)) throw new Error(`storage ${name} is named twice`);
    const resolved = path.resolve(cwd, folder);
    if (folders.has(resolved)) throw new Error(`two storages share the folder ${resolved}`);
    folders.add(resolved);
    storages.set(name, resolved);
  }
  if (!storages.size) throw new Error("names no storage");
  return storages;
}

/** True when the value parses (for the configuration's validation). */
export function validRepositoryStorages(value: string): boolean {
  try {
    parseRepositoryStorages(value);
    return true;
  } catch {
    return false;
  }
}
