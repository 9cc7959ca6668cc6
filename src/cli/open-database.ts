import { createServices, Services } from "../app/services";
import { Config } from "../config/config";
import { Database, openDatabase } from "../db/database";
import { createLogger, Logger } from "../logging/logger";

export interface CommandContext {
  database: Database;
  services: Services;
  logger: Logger;
  /** Runs `stop` first when the command closes (workers it started). */
  onClose(stop: () => Promise<void>): void;
  close(): Promise<void>;
}

/**
 * Opens the database for a command (joining the embedded server when another memicl process runs it) and says
 * which one it is, `database: ...`, on `say`: stdout for commands that talk to a person, stderr for those whose
 * stdout is data (a prompt, a report, a key), nothing for those that say it their own way.
 */
export async function openForCommand(
  config: Config,
  options: { say?: NodeJS.WritableStream | null } = {},
): Promise<CommandContext> {
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  const database = await openDatabase(config, logger);
  const say = options.say === undefined ? process.stdout : options.say;
  say?.write(`database: ${database.description}\n`);
  const services = createServices(database, config, logger);
  const stops: (() => Promise<void>)[] = [];
  return {
    database,
    services,
    logger,
    onClose: (stop) => stops.push(stop),
    async close() {
      for (const stop of stops) await stop();
      await services.close();
      await database.close();
    },
  };
}
