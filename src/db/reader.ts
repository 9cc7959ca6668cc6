import { Client } from "pg";
import type { Config } from "../config/config";
import type { Logger } from "../logging/logger";
import { describeCluster, redactUrl } from "./describe";
import { joinCluster } from "./embedded";

/**
 * A database for a command that reads a few rows and prints them (`memicl experiments`, `workers`, `keys list`):
 * one `pg` connection, no ORM, no entities, no GraphQL types, so the command answers in a fraction of what
 * opening the service's data source costs. The embedded server is joined (or started) as any command does.
 */
export interface Reader {
  query<T = Record<string, unknown>>(text: string, parameters?: unknown[]): Promise<T[]>;
  /** One line for humans: which database this is. */
  description: string;
  /** The embedded database: this process started its server. */
  startedServer: boolean;
  close(): Promise<void>;
}

export async function openReader(config: Config, logger: Logger, lingerSeconds = 0): Promise<Reader> {
  if (config.databaseUrl)
    return connectReader(
      config.databaseUrl,
      `PostgreSQL server ${redactUrl(config.databaseUrl)}`,
      false,
      null,
    );
  const cluster = await joinCluster(config.dataDir, logger, { lingerSeconds });
  return connectReader(
    cluster.url,
    describeCluster(cluster, config.dataDirSource),
    cluster.how === "started",
    () => cluster.release(),
  );
}

async function connectReader(
  url: string,
  description: string,
  startedServer: boolean,
  release: (() => Promise<void>) | null,
): Promise<Reader> {
  const client = new Client({ connectionString: url, application_name: "memicl-cli" });
  try {
    await client.connect();
  } catch (error) {
    await release?.();
    throw error;
  }
  return {
    description,
    startedServer,
    query: async <T>(text: string, parameters: unknown[] = []) =>
      (await client.query(text, parameters)).rows as T[],
    close: async () => {
      await client.end().catch(() => {});
      await release?.();
    },
  };
}
