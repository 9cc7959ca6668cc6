import { createServices, Services } from "../api/services";
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

/** Opens the database for a command: joins the embedded server when another memicl process runs it. */
export async function openForCommand(config: Config): Promise<CommandContext> {
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  const database = await openDatabase(config, logger);
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
