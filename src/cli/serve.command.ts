import { startServer } from "../api/server";
import { Config } from "../config/config";
import { openDatabase } from "../db/database";
import { createLogger } from "../logging/logger";

export async function runServe(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config, logger);
  logger.info({ database: database.mode }, `database: ${database.description}`);
  const server = await startServer(config, logger, database);
  logger.info({ url: server.url }, `memicl is serving GraphQL at http://localhost:${server.port}/graphql`);
  process.stderr.write(
    `memicl: GraphQL at http://localhost:${server.port}/graphql (${database.description})\n`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // A shutdown that hangs must not keep the data folder locked forever.
    setTimeout(() => {
      logger.error("shutdown took longer than 15 s; exiting anyway");
      process.exit(1);
    }, 15_000).unref();
    await server.close();
    logger.debug("HTTP server closed");
    await database.close();
    logger.debug("database closed");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}
