import { z } from "zod";
import { loadProviders, ProviderConfig } from "../llm/provider-config";
import { chooseDataDir, DataDirSource } from "./data-dir";

/**
 * The one typed configuration object. It is read from the environment once, at start-up;
 * nothing else in the code base reads `process.env`.
 */
export interface Config {
  port: number;
  /** Where `memicl serve` listens (loopback unless told otherwise). */
  host: string;
  /** `keys`: every request needs an API key (`Authorization: Bearer ...`); `none`: local use, no keys. */
  auth: "none" | "keys";
  /** Serve on a non-loopback address without authentication (logged as a warning). */
  allowUnauthenticated: boolean;
  /** A separate bearer token for `GET /metrics` (scrapers); with keys on, a key works there too. */
  metricsToken: string | undefined;
  /** Origins allowed to call the API from a browser; empty: CORS off. */
  corsOrigins: string[];
  /** Host names requests may use beside loopback names and `host` (`*`: any); others are refused. */
  allowedHosts: string[];
  maxQueryAliases: number;
  maxQueryDirectives: number;
  maxQueryTokens: number;
  maxQueryCost: number;
  /** Unset: the embedded PostgreSQL server whose cluster is kept under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** How `dataDir` was chosen (see `chooseDataDir`). */
  dataDirSource: DataDirSource;
  logLevel: LogLevel;
  /** Largest GraphQL query depth accepted. */
  maxQueryDepth: number;
  /** Prompts one request's grid estimates may render in all (instances x cells). */
  maxEstimatePrompts: number;
  /** Largest inline body accepted by `importDataset`, in bytes. */
  maxInlineImportBytes: number;
  /** Largest field of an imported row, in bytes. */
  maxFieldBytes: number;
  /** Model providers by name; `simulated` is built in. */
  providers: Record<string, ProviderConfig>;
  /** Calls `memicl serve` makes at once in its own process (0: it runs no workers; `memicl worker` does). */
  inProcessWorkers: number;
  /** Calls a `memicl worker` process makes at once. */
  workerConcurrency: number;
  /** How long a claimed completion stays claimed without an answer before another worker may take it. */
  leaseSeconds: number;
  /** How often a process working on the queue looks at provider batches (forms new ones, polls those due). */
  batchTickMs: number;
  /**
   * Connections of this process's pool (TypeORM's) and of its job queue's (pg-boss's): a process holds up to their
   * sum, and every process on one PostgreSQL counts against its max_connections (docs/OPERATIONS.md).
   */
  dbPoolSize: number;
  queuePoolSize: number;
  /**
   * While a study's results keep changing (a run going), its report and breakdowns are computed again for readers
   * at most once per this many times what computing them took (at least 1 s): lower, fresher dashboards and more
   * of the server's time (report/report-cache.ts `spacingOf`).
   */
  resultsSpacingFactor: number;
  /**
   * The embedded database: how long its server stays up after the last CLI command left it (0: it stops at once),
   * so that consecutive commands join it instead of each starting it. `memicl serve` stops it when it exits.
   */
  embeddedIdleSeconds: number;
}

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {}

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const schema = z.object({
  PORT: integer(0, 65_535).default(4000),
  HOST: z.string().min(1).default("127.0.0.1"),
  MEMICL_AUTH: z.enum(["none", "keys"]).default("none"),
  MEMICL_ALLOW_UNAUTHENTICATED: z.enum(["true", "false"]).default("false"),
  MEMICL_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  MEMICL_CORS_ORIGINS: z.string().default(""),
  MEMICL_ALLOWED_HOSTS: z.string().default(""),
  MEMICL_MAX_QUERY_ALIASES: integer(1, 10_000).default(30),
  MEMICL_MAX_QUERY_DIRECTIVES: integer(1, 10_000).default(50),
  MEMICL_MAX_QUERY_TOKENS: integer(10, 1_000_000).default(5_000),
  MEMICL_MAX_QUERY_COST: integer(10, 1_000_000_000).default(1_000_000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, "must be a postgres:// or postgresql:// URL")
    .optional(),
  MEMICL_DATA_DIR: z.string().min(1, "must not be empty").optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  MEMICL_MAX_QUERY_DEPTH: integer(2, 100).default(12),
  MEMICL_MAX_ESTIMATE_PROMPTS: integer(1, 100_000_000).default(100_000),
  MEMICL_MAX_INLINE_IMPORT_BYTES: integer(1, 1_000_000_000).default(20_000_000),
  MEMICL_MAX_FIELD_BYTES: integer(1, 1_000_000_000).default(1_000_000),
  MEMICL_PROVIDERS_FILE: z.string().min(1).optional(),
  MEMICL_IN_PROCESS_WORKERS: integer(0, 1000).default(32),
  MEMICL_WORKER_CONCURRENCY: integer(1, 1000).default(32),
  MEMICL_LEASE_SECONDS: integer(2, 3_600).default(30),
  MEMICL_BATCH_TICK_MS: integer(50, 60_000).default(1_000),
  MEMICL_DB_POOL_SIZE: integer(2, 1_000).default(10),
  MEMICL_QUEUE_POOL_SIZE: integer(1, 1_000).default(4),
  MEMICL_RESULTS_SPACING_FACTOR: integer(1, 10_000).default(24),
  MEMICL_EMBEDDED_IDLE_SECONDS: integer(0, 86_400).default(600),
});

/** Reads and validates the configuration; a bad value throws a `ConfigError` naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const relevant = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [key, env[key] === "" ? undefined : env[key]]),
  );
  const parsed = schema.safeParse(relevant);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${JSON.stringify(env[name])}: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  const value = parsed.data;
  let providers: Record<string, ProviderConfig>;
  try {
    providers = loadProviders(value.MEMICL_PROVIDERS_FILE, env);
  } catch (error) {
    throw new ConfigError(`invalid configuration: ${(error as Error).message}`);
  }
  return {
    port: value.PORT,
    host: value.HOST,
    auth: value.MEMICL_AUTH,
    allowUnauthenticated: value.MEMICL_ALLOW_UNAUTHENTICATED === "true",
    metricsToken: value.MEMICL_METRICS_TOKEN,
    corsOrigins: value.MEMICL_CORS_ORIGINS.split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    allowedHosts: value.MEMICL_ALLOWED_HOSTS.split(",")
      .map((name) => name.trim())
      .filter(Boolean),
    maxQueryAliases: value.MEMICL_MAX_QUERY_ALIASES,
    maxQueryDirectives: value.MEMICL_MAX_QUERY_DIRECTIVES,
    maxQueryTokens: value.MEMICL_MAX_QUERY_TOKENS,
    maxQueryCost: value.MEMICL_MAX_QUERY_COST,
    databaseUrl: value.DATABASE_URL,
    ...dataDirOf(value.MEMICL_DATA_DIR, env, cwd),
    logLevel: value.LOG_LEVEL,
    maxQueryDepth: value.MEMICL_MAX_QUERY_DEPTH,
    maxEstimatePrompts: value.MEMICL_MAX_ESTIMATE_PROMPTS,
    maxInlineImportBytes: value.MEMICL_MAX_INLINE_IMPORT_BYTES,
    maxFieldBytes: value.MEMICL_MAX_FIELD_BYTES,
    providers,
    inProcessWorkers: value.MEMICL_IN_PROCESS_WORKERS,
    workerConcurrency: value.MEMICL_WORKER_CONCURRENCY,
    leaseSeconds: value.MEMICL_LEASE_SECONDS,
    batchTickMs: value.MEMICL_BATCH_TICK_MS,
    dbPoolSize: value.MEMICL_DB_POOL_SIZE,
    queuePoolSize: value.MEMICL_QUEUE_POOL_SIZE,
    resultsSpacingFactor: value.MEMICL_RESULTS_SPACING_FACTOR,
    embeddedIdleSeconds: value.MEMICL_EMBEDDED_IDLE_SECONDS,
  };
}

function dataDirOf(
  configured: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): { dataDir: string; dataDirSource: DataDirSource } {
  const { dataDir, source } = chooseDataDir({ ...env, MEMICL_DATA_DIR: configured }, cwd);
  return { dataDir, dataDirSource: source };
}
