import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { describeDataDirSource } from "../config/data-dir";
import { dataFolderState, removeDataFolder, stopUnusedServer } from "../db/embedded";
import { createLogger } from "../logging/logger";

/** `memicl db info`: which database commands here use, and the state of the embedded one. */
export async function runDbInfo(config: Config): Promise<void> {
  const out = process.stdout;
  if (config.databaseUrl) {
    out.write("database: the PostgreSQL server DATABASE_URL names (the embedded database is not used)\n");
    return;
  }
  const state = dataFolderState(config.dataDir);
  out.write(`data folder: ${state.dataDir} (${describeDataDirSource(config.dataDirSource)})\n`);
  if (!state.clusterDir) {
    out.write("no database there yet: the first command that needs one creates it\n");
    return;
  }
  out.write(`embedded PostgreSQL ${state.version}, files in ${state.clusterDir}\n`);
  out.write(state.serverPid ? `server running (pid ${state.serverPid})\n` : "server not running\n");
  out.write(
    state.clients.length > 0
      ? `used by memicl processes: pid ${state.clients.join(", ")}\n`
      : state.serverPid && state.idleUntil
        ? `used by no memicl process: it stops at ${new Date(state.idleUntil).toISOString()} unless a command joins it (memicl db stop: now)\n`
        : "used by no memicl process\n",
  );
}

/** `memicl db stop`: stops the embedded server now when no memicl process uses it (one the last command left up). */
export async function runDbStop(config: Config): Promise<void> {
  if (config.databaseUrl)
    throw new BadInputError("DATABASE_URL is set: memicl db stop only stops an embedded database's server");
  const stopped = await stopUnusedServer(config.dataDir, createLogger("warn"));
  process.stdout.write(stopped ? "stopped the embedded database's server\n" : "its server was not running\n");
}

/** `memicl db remove --yes`: deletes the embedded database (its folder and cluster), refusing while it is used. */
export async function runDbRemove(config: Config, options: { yes?: boolean }): Promise<void> {
  if (config.databaseUrl)
    throw new BadInputError("DATABASE_URL is set: memicl db remove only removes an embedded database");
  const state = dataFolderState(config.dataDir);
  if (!options.yes) {
    process.stdout.write(
      `would remove ${state.dataDir}${state.clusterDir && !state.clusterDir.startsWith(state.dataDir) ? ` and ${state.clusterDir}` : ""}, ` +
        "with every dataset, sample, run and result in it; run again with --yes to do it\n",
    );
    process.exitCode = 1;
    return;
  }
  const removed = await removeDataFolder(config.dataDir, createLogger("warn"));
  for (const folder of removed) process.stdout.write(`removed ${folder}\n`);
}
