import { DataSource, Logger as TypeOrmLogger } from "typeorm";
import { MIGRATIONS } from "../../migrations";
import { ENTITIES } from "./entities";
import { GuardedClient } from "./guarded-client";

export interface DataSourceOptions {
  url: string;
  poolSize: number;
  /** Receives every SQL statement; tests use it to count queries. */
  onQuery?: (sql: string) => void;
}

class QueryListener implements TypeOrmLogger {
  constructor(private readonly onQuery: (sql: string) => void) {}
  logQuery(query: string) {
    this.onQuery(query);
  }
  logQueryError() {}
  logQuerySlow() {}
  logSchemaBuild() {}
  logMigration() {}
  log() {}
}

/** One data source shape for both backends: the embedded database is a PostgreSQL server like any other. */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: "postgres",
    url: options.url,
    poolSize: options.poolSize,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTransactionMode: "each",
    synchronize: false,
    installExtensions: false,
    uuidExtension: "pgcrypto",
    logging: options.onQuery ? ["query"] : false,
    logger: options.onQuery ? new QueryListener(options.onQuery) : undefined,
    // The pool's clients are guarded against an error emitted while no one listens (guarded-client.ts).
    extra: { application_name: "memicl", Client: GuardedClient },
  });
}
