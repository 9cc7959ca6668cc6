import { Config } from "../config/config";
import { Database, openDatabase } from "../db/database";
import { createLogger } from "../logging/logger";

/** Opens the database for a one-shot command: it may share an embedded folder a running server owns. */
export async function openForCommand(config: Config): Promise<Database> {
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  return openDatabase(config, logger, { shareEmbedded: true, poolSize: 2 });
}
