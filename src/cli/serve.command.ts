import { dashboardDirectory } from "../api/routes/dashboard";
import { isLoopback, startServer } from "../api/server";
import { Config, ConfigError } from "../config/config";
import { openDatabase } from "../db/database";
import { createLogger } from "../logging/logger";

export async function runServe(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  if (!isLoopback(config.host) && config.auth === "none") {
    if (!config.allowUnauthenticated)
      throw new ConfigError(
        `HOST=${config.host} is not a loopback address and authentication is off: anyone who reaches the port could ` +
          "start paid runs and change reviews. Turn on API keys (MEMICL_AUTH=keys, then `memicl keys create --name " +
          "NAME --role admin`), serve on loopback (HOST=127.0.0.1, the default), or set " +
          "MEMICL_ALLOW_UNAUTHENTICATED=true to serve anyway",
      );
    logger.warn(
      { host: config.host },
      "serving on a non-loopback address without authentication (MEMICL_ALLOW_UNAUTHENTICATED=true)",
    );
  }
  const database = await openDatabase(config, logger);
  logger.info({ database: database.mode }, `database: ${database.description}`);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(config, logger, database);
  } catch (error) {
    // The data folder's lock and the embedded server are let go of before the error is reported.
    await database.close().catch(() => {});
    throw error;
  }
  logger.info({ url: server.url }, `memicl is serving GraphQL at http://localhost:${server.port}/graphql`);
  if (config.auth === "keys") {
    const [{ live }] = await database.dataSource.query(
      "SELECT count(*)::int AS live FROM api_key WHERE revoked_at IS NULL",
    );
    const advice = keysAdvice(live);
    if (advice) process.stderr.write(`memicl: ${advice}\n`);
  }
  const dashboard = dashboardDirectory()
    ? `dashboard at http://localhost:${server.port}/, `
    : "dashboard not built (npm run build), ";
  process.stderr.write(
    `memicl: ${dashboard}GraphQL at http://localhost:${server.port}/graphql (${database.description})\n`,
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

/**
 * What `memicl serve` says when API keys are on and none exists yet (a fresh container, say): every request is
 * refused until one is made, so it names the command that makes one, in a shell and in a container.
 */
export function keysAdvice(liveKeys: number): string | null {
  if (liveKeys > 0) return null;
  return (
    "API keys are on (MEMICL_AUTH=keys) and none exists yet, so every request is refused: create one with " +
    "`memicl keys create --name admin --role admin` on this database " +
    "(in a container: `docker exec <container> node bin/memicl.js keys create --name admin --role admin`); " +
    "it is printed once"
  );
}
