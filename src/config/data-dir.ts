import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The folder name an embedded database lives in when it is found by walking up, as git finds `.git`. */
export const DATA_DIR_NAME = ".memicl";

/** How the data folder was chosen, said by every command beside the folder. */
export type DataDirSource = "MEMICL_DATA_DIR" | "found" | "default";

export interface DataDirChoice {
  dataDir: string;
  source: DataDirSource;
}

/**
 * The embedded database's folder, the same from any working directory: `MEMICL_DATA_DIR` when set; else the
 * nearest `.memicl` folder holding a database, walking up from the working directory (as git finds `.git`);
 * else one folder per user, `$XDG_DATA_HOME/memicl` (`~/.local/share/memicl`). A new database is never created
 * in the working directory by accident, so a command run from a subfolder or the parent folder of a checkout
 * uses the database the server uses.
 */
export function chooseDataDir(env: NodeJS.ProcessEnv, cwd: string): DataDirChoice {
  const configured = env.MEMICL_DATA_DIR;
  if (configured) return { dataDir: path.resolve(cwd, configured), source: "MEMICL_DATA_DIR" };
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, DATA_DIR_NAME);
    if (holdsDatabase(candidate)) return { dataDir: candidate, source: "found" };
    if (path.dirname(dir) === dir) break;
  }
  return { dataDir: defaultDataDir(env), source: "default" };
}

/** The per-user data folder: `$XDG_DATA_HOME/memicl`, else `~/.local/share/memicl`. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : null;
  return path.join(base ?? path.join(env.HOME || os.homedir(), ".local", "share"), "memicl");
}

/** A data folder memicl made: it has its cluster file (or, from before 0.2, a PGlite database it refuses). */
function holdsDatabase(dir: string): boolean {
  return ["cluster.json", "pgdata", "owner.json"].some((name) => fs.existsSync(path.join(dir, name)));
}

/** The words a command prints about how its data folder was chosen. */
export function describeDataDirSource(source: DataDirSource): string {
  return source === "MEMICL_DATA_DIR"
    ? "set by MEMICL_DATA_DIR"
    : source === "found"
      ? "found by walking up from the working directory"
      : "this user's default";
}
