import { MIGRATIONS } from "../../migrations";
import { ConflictError } from "../common/errors";
import type { Config } from "../config/config";
import { openReader, type Reader } from "../db/reader";
import { createLogger } from "../logging/logger";

/** The database's schema is older than this memicl, and a read-only command does not migrate it. */
export class SchemaBehindError extends ConflictError {
  constructor(pending: number) {
    super(
      `the database's schema is behind this memicl (${pending} migration(s) to apply); run \`memicl migrate\` first`,
      { pending },
    );
  }
}

export interface OpenOptions {
  /** Where to say which database this is: stdout by default, stderr for commands whose stdout is data, null. */
  say?: NodeJS.WritableStream | null;
}

/**
 * Opens the database for a command that reads a few rows and prints them (`experiments`, `workers`, `keys list`):
 * one connection without the ORM (`openReader`), and the schema as it is. A schema behind this memicl is refused
 * with the command to run, never migrated behind the user's back.
 */
export async function openPlainReadOnly(config: Config, options: OpenOptions = {}): Promise<Reader> {
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  const reader = await openReader(config, logger, config.embeddedIdleSeconds);
  try {
    const pending = await pendingMigrations((text) => reader.query(text));
    if (pending > 0) throw new SchemaBehindError(pending);
  } catch (error) {
    await reader.close();
    throw error;
  }
  announce(reader, config, options);
  return reader;
}

/** Migrations this code has that the database has not applied (all of them on an empty database). */
export async function pendingMigrations(query: (text: string) => Promise<unknown[]>): Promise<number> {
  const [{ exists }] = (await query("SELECT to_regclass('migrations') IS NOT NULL AS exists")) as {
    exists: boolean;
  }[];
  const applied = exists ? ((await query("SELECT name FROM migrations")) as { name: string }[]) : [];
  const names = new Set(applied.map((row) => row.name));
  return MIGRATIONS.filter((migration) => !names.has(migration.name)).length;
}

/**
 * Says which database a command opened (`database: ...`), and, from the command that started the embedded
 * server, that the server outlives it for the idle period.
 */
export function announce(
  database: { description: string; startedServer?: boolean },
  config: Config,
  options: OpenOptions,
): void {
  const say = options.say === undefined ? process.stdout : options.say;
  say?.write(`database: ${database.description}\n`);
  if (database.startedServer && config.embeddedIdleSeconds > 0)
    process.stderr.write(
      `memicl: the embedded database stays up ${idlePeriod(config.embeddedIdleSeconds)} after the last command, so ` +
        "the next one starts at once (MEMICL_EMBEDDED_IDLE_SECONDS; `memicl db stop` stops it now)\n",
    );
}

/** "10 min", "45 s": an idle period as a person reads it. */
function idlePeriod(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}
