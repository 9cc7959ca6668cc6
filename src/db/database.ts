import { DataSource } from "typeorm";
import { Config } from "../config/config";
import { DataDirSource, describeDataDirSource } from "../config/data-dir";
import { Logger } from "../logging/logger";
import { createDataSource } from "./data-source";
import { EmbeddedCluster, joinCluster } from "./embedded";

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
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  poolSize?: number;
  runMigrations?: boolean;
  onQuery?: (sql: string) => void;
}

/** The pool every process opens, whichever the database: one engine, one configuration. */
export const DEFAULT_POOL_SIZE = 10;

/** Opens the configured database (starting or joining the embedded server) and brings its schema up to date. */
export async function openDatabase(
  config: Config,
  logger: Logger,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  if (config.databaseUrl)
    return connect(
      "server",
      config.databaseUrl,
      `PostgreSQL server ${redact(config.databaseUrl)}`,
      null,
      options,
    );
  const cluster = await joinCluster(config.dataDir, logger);
  return connect("embedded", cluster.url, describeCluster(cluster, config.dataDirSource), cluster, options);
}

export function describeCluster(cluster: EmbeddedCluster, source?: DataDirSource): string {
  const notes = [
    ...(source ? [describeDataDirSource(source)] : []),
    ...(cluster.clusterDir.startsWith(cluster.dataDir) ? [] : [`files in ${cluster.clusterDir}`]),
  ];
  const where = notes.length > 0 ? `${cluster.dataDir} (${notes.join("; ")})` : cluster.dataDir;
  const how = cluster.how === "started" ? "started by this process" : "already running";
  return `embedded PostgreSQL ${cluster.version} in ${where}, ${how} (pid ${cluster.serverPid})`;
}

/** Connects to a database URL; `cluster`, when given, is left when the database is closed. */
export async function connect(
  mode: DatabaseMode,
  url: string,
  description: string,
  cluster: Pick<EmbeddedCluster, "release"> | null,
  options: OpenDatabaseOptions,
): Promise<Database> {
  const dataSource = createDataSource({
    url,
    poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
    onQuery: options.onQuery,
  });
  try {
    await dataSource.initialize();
    if (options.runMigrations !== false) await migrate(dataSource);
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await cluster?.release();
    throw error;
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

/** Brings the schema up to date; processes starting together take turns (a session advisory lock). */
async function migrate(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query("SELECT pg_advisory_lock(hashtext('memicl:migrations'))");
    try {
      await dataSource.runMigrations();
    } finally {
      await runner.query("SELECT pg_advisory_unlock(hashtext('memicl:migrations'))");
    }
  } finally {
    await runner.release();
  }
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
