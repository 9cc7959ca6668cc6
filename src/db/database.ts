import { DataSource } from "typeorm";
import { Config } from "../config/config";
import { Logger } from "../logging/logger";
import { createDataSource } from "./data-source";
import { DataFolderInUseError, EmbeddedServer, ownerUrl, startOwner } from "./embedded";

export type DatabaseMode =
  /** PostgreSQL at DATABASE_URL. */
  | "server"
  /** This process owns the embedded data folder. */
  | "embedded"
  /** Another memicl process owns the embedded data folder; this one uses its database through its socket. */
  | "embedded-shared";

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
  /** May this process use a data folder another memicl process owns? (CLI commands may; `serve` may not.) */
  shareEmbedded: boolean;
  poolSize?: number;
  runMigrations?: boolean;
  onQuery?: (sql: string) => void;
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(
  config: Config,
  logger: Logger,
  options: OpenDatabaseOptions,
): Promise<Database> {
  const poolSize = options.poolSize ?? 8;
  if (config.databaseUrl) {
    return connect(
      "server",
      config.databaseUrl,
      `PostgreSQL server ${redact(config.databaseUrl)}`,
      null,
      options,
      poolSize,
    );
  }
  let embedded: EmbeddedServer;
  try {
    embedded = await startOwner(config.dataDir, logger);
  } catch (error) {
    if (!(error instanceof DataFolderInUseError) || !options.shareEmbedded) throw error;
    const url = ownerUrl(config.dataDir);
    if (!url) throw error;
    const pid = error.owner?.pid;
    return connect(
      "embedded-shared",
      url,
      `embedded database in ${config.dataDir}, through the running memicl process (pid ${pid})`,
      null,
      options,
      Math.min(poolSize, 4),
    );
  }
  return connect(
    "embedded",
    embedded.url,
    `embedded database in ${config.dataDir}`,
    embedded,
    options,
    poolSize,
  );
}

/** Connects to a database URL (tests use this with an in-memory PGlite or a per-test PostgreSQL schema). */
export async function connect(
  mode: DatabaseMode,
  url: string,
  description: string,
  embedded: EmbeddedServer | null,
  options: Omit<OpenDatabaseOptions, "shareEmbedded">,
  poolSize: number,
): Promise<Database> {
  const dataSource = createDataSource({ url, poolSize, onQuery: options.onQuery });
  try {
    await dataSource.initialize();
    if (options.runMigrations !== false) await dataSource.runMigrations();
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.close();
    throw error;
  }
  return {
    mode,
    dataSource,
    url,
    description,
    async close() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.close();
    },
  };
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
