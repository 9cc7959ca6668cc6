import { RunningServer, startServer } from "../../src/api/server";
import { Config, loadConfig } from "../../src/config/config";
import { createLogger } from "../../src/logging/logger";
import { Backend, createTestDatabase, TestDatabase } from "./databases";

export interface GraphQLResponse<T = Record<string, any>> {
  status: number;
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: Record<string, any> }[];
}

export interface TestServer {
  database: TestDatabase;
  server: RunningServer;
  config: Config;
  /** SQL statements run since the last `resetQueries()`. */
  queries: string[];
  resetQueries(): void;
  gql<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphQLResponse<T>>;
  close(): Promise<void>;
}

/** Starts the real HTTP server on a free port over a fresh database of the given backend. */
export async function startTestServer(
  backend: Backend,
  env: Record<string, string> = {},
  /** Serve this database (another server's, say, after it stopped); closing the server then leaves it open. */
  existing?: TestDatabase,
): Promise<TestServer> {
  const queries: string[] = [];
  const database = existing ?? (await createTestDatabase(backend, { onQuery: (sql) => queries.push(sql) }));
  const config = loadConfig({ PORT: "0", LOG_LEVEL: "silent", MEMICL_IN_PROCESS_WORKERS: "0", ...env });
  const server = await startServer(config, createLogger("silent"), database);
  return {
    database,
    server,
    config,
    queries,
    resetQueries: () => {
      queries.length = 0;
    },
    async gql(query, variables) {
      const response = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, ...((await response.json()) as object) };
    },
    async close() {
      await server.close();
      if (!existing) await database.close();
    },
  };
}
