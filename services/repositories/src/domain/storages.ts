import { loadConfig, parseRepositoryStorages } from "@collab/core";
import { storageUnavailable } from "@collab/repositories-contract";
import { readFileSync } from "node:fs";
import path from "node:path";

/** REPOSITORY_STORAGES, or the content of REPOSITORY_STORAGES_FILE when that is set. */
function configuredStorages(): string {
  const config = loadConfig();
  return config.REPOSITORY_STORAGES_FILE ? readFileSync(config.REPOSITORY_STORAGES_FILE, "utf8").trim() : config.REPOSITORY_STORAGES;
}

/**
 * The storages this process serves (REPOSITORY_STORAGES), by name. A repository on another
 * storage is another replica's: callers route there (`onStorage`), and this one answers 503.
 * The configuration is read on first use (when the broker creates the service), not at import.
 */
export class LocalStorages {
  private parsed: Map<string, string> | undefined;

  constructor(private readonly read: () => string = configuredStorages) {}

  private get folders(): Map<string, string> {
    return (this.parsed ??= parseRepositoryStorages(this.read()));
  }

  get names(): string[] {
    return [...this.folders.keys()];
  }

  serves(storage: string): boolean {
    return this.folders.has(storage);
  }

  /** The absolute folder of a repository on a storage served here; 503 for another storage. */
  folderOf(storage: string, diskPath: string): string {
    const root = this.folders.get(storage);
    if (!root) throw storageUnavailable(storage);
    const dir = path.resolve(root, diskPath);
    if (!dir.startsWith(root + path.sep)) throw new Error(`disk path ${diskPath} leaves its storage`);
    return dir;
  }
}
