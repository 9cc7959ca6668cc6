import { DataSource } from "typeorm";
import { Config, ConfigError } from "../config/config";
import { Logger } from "../logging/logger";
import { connectionBudget, readConnectionFacts } from "./connection-budget";
import { createDataSource } from "./data-source";
import { describeCluster, redactUrl } from "./describe";
import { EmbeddedCluster, joinCluster, serverPidOf } from "./embedded";
import { databaseRefusal } from "./refusal";

export type DatabaseMode =
  /** PostgreSQL at DATABASE_URL. */
  | "server"
  /** The embedded PostgreSQL server of the data folder. */
  | "embedded";

export interface Database {
  mode: DatabaseMode;
  dataSource: DataSource;
  /** A connection URL for other clients of the same database (the job queue). */
  url: string;
  /** One line for humans: which database this is. */
  description: string;
  /** The embedded database: this process started its server (it was not running). */
  startedServer?: boolean;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  poolSize?: number;
  runMigrations?: boolean;
  onQuery?: (sql: string) => void;
  /** Told each time the server refuses a connection at start (full, starting up) and how long until the next try. */
  onRefused?: (reason: string, seconds: number) => void;
  /** The embedded server: leave it up this long after this process, the last on it, leaves (CLI commands). */
  lingerSeconds?: number;
}

/** The pool every process opens, whichever the database: one engine, one configuration. */
export const DEFAULT_POOL_SIZE = 10;

/** Opens the configured database (starting or joining the embedded server) and brings its schema up to date. */
export async function openDatabase(
  config: Config,
  logger: Logger,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  options = { poolSize: config.dbPoolSize, ...options };
  if (config.databaseUrl)
    return withinConnectionBudget(
      await connect(
        "server",
        config.databaseUrl,
        `PostgreSQL server ${redactUrl(config.databaseUrl)}`,
        null,
        options,
      ),
      config,
      logger,
      options,
    );
  const cluster = await joinCluster(config.dataDir, logger, { lingerSeconds: options.lingerSeconds });
  const watchdog = watchEmbeddedServer(cluster, logger);
  try {
    const database = await withinConnectionBudget(
      await connect(
        "embedded",
        cluster.url,
        describeCluster(cluster, config.dataDirSource),
        {
          release: async () => {
            watchdog.stop();
            await cluster.release();
          },
        },
        options,
      ),
      config,
      logger,
      options,
    );
    database.startedServer = cluster.how === "started";
    return database;
  } catch (error) {
    watchdog.stop();
    throw error;
  }
}

/** The connection error a process meets at start when its own pools exceed what the server allows. */
export class ConnectionBudgetError extends ConfigError {}

/**
 * Checks at start that this process's pools fit the server's connection limits (`connectionBudget`): refuses to
 * start, naming the numbers, when they cannot; logs the numbers and the room left otherwise.
 */
async function withinConnectionBudget(
  database: Database,
  config: Config,
  logger: Logger,
  options: OpenDatabaseOptions,
): Promise<Database> {
  const facts = await readConnectionFacts(database.dataSource, database.url);
  if (!facts) return database;
  const budget = connectionBudget(facts, (options.poolSize ?? config.dbPoolSize) + config.queuePoolSize + 1);
  if (budget.fatal) {
    await database.close();
    throw new ConnectionBudgetError(budget.fatal);
  }
  if (budget.tight) logger.warn({ connections: facts }, budget.note);
  else logger.debug({ connections: facts }, budget.note);
  return database;
}

/** How often a process on the embedded database checks that its server is alive. */
const WATCH_INTERVAL_MS = 2_000;

/**
 * Restarts the embedded server when it dies under a live process (kill -9, the OOM killer): every process on it
 * watches, and the first to see it gone starts it again under the data folder's lock (PostgreSQL replays its
 * write-ahead log), so work resumes without a manual step. The pools reconnect on their next query.
 */
export function watchEmbeddedServer(cluster: EmbeddedCluster, logger: Logger): { stop(): void } {
  let restarting = false;
  const timer = setInterval(() => {
    if (restarting || serverPidOf(cluster.clusterDir) !== null) return;
    restarting = true;
    logger.warn(
      { clusterDir: cluster.clusterDir },
      "the embedded PostgreSQL server is gone; starting it again",
    );
    joinCluster(cluster.dataDir, logger)
      .then((joined) => {
        if (joined.url !== cluster.url)
          logger.error(
            { port: new URL(joined.url).port },
            "the embedded server came back on another port (its own was taken); restart memicl to use it",
          );
        else logger.info({ pid: joined.serverPid }, "the embedded PostgreSQL server is back");
      })
      .catch((error) => logger.error({ err: error }, "could not restart the embedded PostgreSQL server"))
      .finally(() => {
        restarting = false;
      });
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * The server refuses a connection for now: out of connections (53300, "too many clients"; 53000 for a pooler's
 * own limit) or starting up (57P03). A wrong address or password is not tried again.
 */

/** How many times a process tries to open its database at start before it gives up (about a minute in all). */
const START_ATTEMPTS = 10;

/** The wait before start attempt `attempt + 1`: 0.25 s doubling to 8 s, with jitter so that workers spread out. */
export function startBackoffMs(attempt: number): number {
  return Math.min(8_000, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
}

/** Connects to a database URL; `cluster`, when given, is left when the database is closed. */
export async function connect(
  mode: DatabaseMode,
  url: string,
  description: string,
  cluster: Pick<EmbeddedCluster, "release"> | null,
  options: OpenDatabaseOptions,
): Promise<Database> {
  // A server out of connections at start ("too many clients", 53300), one restarting: tried again with backoff,
  // so a worker started beside many others waits for room instead of exiting.
  let dataSource: DataSource;
  for (let attempt = 1; ; attempt++) {
    dataSource = createDataSource({
      url,
      poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
      onQuery: options.onQuery,
    });
    try {
      await dataSource.initialize();
      if (options.runMigrations !== false) await migrate(dataSource);
      break;
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy().catch(() => {});
      const refusal = databaseRefusal(error, false);
      if (refusal && attempt < START_ATTEMPTS) {
        const waitMs = startBackoffMs(attempt);
        options.onRefused?.(refusal, Math.round(waitMs / 100) / 10);
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        continue;
      }
      await cluster?.release();
      throw error;
    }
  }
  return {
    mode,
    dataSource,
    url,
    description,
    async close() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await cluster?.release();
    },
  };
}

/**
 * Brings the schema up to date; processes starting together take turns. The turn is an advisory lock of a
 * transaction kept open while the migrations run on other connections: a transaction stays on one server
 * connection even through a transaction-mode pooler (PgBouncer), where a session lock could be taken on one
 * server connection and never released on another.
 */
async function migrate(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    try {
      await runner.query("SELECT pg_advisory_xact_lock(hashtext('memicl:migrations'))");
      await dataSource.runMigrations();
    } finally {
      await runner.commitTransaction().catch(() => {});
    }
  } finally {
    await runner.release();
  }
}
