import { CoreServices, createCoreServices } from "../app/core-services";
import type { RunServices, Services } from "../app/services";
import { Config } from "../config/config";
import { Database, openDatabase } from "../db/database";
import { createLogger, Logger } from "../logging/logger";
import { announce, type OpenOptions, pendingMigrations, SchemaBehindError } from "./read-only";

export interface CommandContext<S = Services> {
  database: Database;
  services: S;
  logger: Logger;
  /** Runs `stop` first when the command closes (workers it started). */
  onClose(stop: () => Promise<void>): void;
  close(): Promise<void>;
}

export { SchemaBehindError };

/**
 * Opens the database for a command that queues work, makes calls or writes (joining the embedded server when
 * another memicl process runs it), brings its schema up to date, and says which database it is, `database: ...`.
 */
export async function openForCommand(config: Config, options: OpenOptions = {}): Promise<CommandContext> {
  const { database, logger } = await open(config, options, true);
  const core = createCoreServices(database.dataSource, config);
  let run: RunServices | undefined;
  const services = withRunServicesOnFirstUse(core, () => {
    if (!run) {
      // Loaded here, not at the top: importing, sampling or printing a prompt never loads the queue (pg-boss) or
      // the providers (openai), about 0.4 s of every such command.
      const { createRunServices } = require("../app/services") as typeof import("../app/services");
      run = createRunServices(core, database, config, logger);
    }
    return run;
  });
  return commandContext(database, services, logger, async () => {
    await run?.close();
  });
}

/** Every run service, by name: what a command's services give on first use (checked against RunServices). */
const RUN_SERVICE_NAMES: Record<keyof RunServices, true> = {
  providers: true,
  queue: true,
  runLifecycle: true,
  budgets: true,
  executor: true,
  batches: true,
  judgments: true,
  judgmentExecutor: true,
  worker: true,
  progress: true,
  close: true,
};

/** The core services, and the run services built the first time a command reads one of them. */
export function withRunServicesOnFirstUse(core: CoreServices, build: () => RunServices): Services {
  // The core's properties as they are (getters that build a service on first use), not their values.
  const services = Object.defineProperties({}, Object.getOwnPropertyDescriptors(core)) as Services;
  for (const name of Object.keys(RUN_SERVICE_NAMES) as (keyof RunServices)[])
    Object.defineProperty(services, name, { enumerable: true, get: () => build()[name] });
  return services;
}

/**
 * Opens the database for a command that only reads (`report`, `export`, `experiments`, `workers`, `keys list`):
 * the core services only, and the schema as it is. A schema behind this memicl is refused with the command to
 * run, never migrated behind the user's back.
 */
export async function openReadOnly(
  config: Config,
  options: OpenOptions = {},
): Promise<CommandContext<CoreServices>> {
  const { database, logger } = await open(config, options, false);
  try {
    const pending = await pendingMigrations((text) => database.dataSource.query(text));
    if (pending > 0) throw new SchemaBehindError(pending);
  } catch (error) {
    await database.close();
    throw error;
  }
  return commandContext(database, createCoreServices(database.dataSource, config), logger, async () => {});
}

async function open(config: Config, options: OpenOptions, runMigrations: boolean) {
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  const database = await openDatabase(config, logger, {
    runMigrations,
    lingerSeconds: config.embeddedIdleSeconds,
    onRefused: (reason, seconds) =>
      process.stderr.write(
        `memicl: the database refused a connection (${reason}); trying again in ${seconds} s\n`,
      ),
  });
  announce(database, config, options);
  return { database, logger };
}

function commandContext<S>(
  database: Database,
  services: S,
  logger: Logger,
  closeServices: () => Promise<void>,
): CommandContext<S> {
  const stops: (() => Promise<void>)[] = [];
  return {
    database,
    services,
    logger,
    onClose: (stop) => stops.push(stop),
    async close() {
      for (const stop of stops) await stop();
      await closeServices();
      await database.close();
    },
  };
}
