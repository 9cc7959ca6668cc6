import { createServices, Services } from "../api/services";
import { Config } from "../config/config";
import { Database, openDatabase } from "../db/database";
import { createLogger, Logger } from "../logging/logger";

export interface CommandContext {
  database: Database;
  services: Services;
  logger: Logger;
  close(): Promise<void>;
}

/** Opens the database for a one-shot command: it may share an embedded folder a running server owns. */
export async function openForCommand(config: Config, poolSize = 2): Promise<CommandContext> {
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  const database = await openDatabase(config, logger, { shareEmbedded: true, poolSize });
  const services = createServices(database, config, logger);
  return {
    database,
    services,
    logger,
    async close() {
      await services.close();
      await database.close();
    },
  };
}
