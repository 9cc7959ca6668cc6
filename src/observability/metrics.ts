import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { DataSource } from "typeorm";
import { ProviderCallError } from "../llm/model-provider";

/**
 * What this process does, counted as it happens (one registry per process; `memicl serve` merges it with the
 * database-wide gauges of `databaseRegistry` on GET /metrics). Names follow Prometheus conventions.
 */
export const processRegistry = new Registry();

let defaultsCollected = false;

/**
 * Node's own metrics (memory, CPU, event-loop lag, GC), started by the process that serves /metrics; CLI
 * commands, which import the counters above, do not pay for their observers.
 */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: processRegistry, prefix: "memicl_" });
}

export const providerCallDuration = new Histogram({
  name: "memicl_provider_call_duration_seconds",
  help: "Duration of each call to a model provider (one attempt), by provider and outcome",
  labelNames: ["provider", "outcome"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
  registers: [processRegistry],
});

export const providerRetries = new Counter({
  name: "memicl_provider_retries_total",
  help: "Provider calls tried again, by provider and cause (rate_limited, server_error, timeout, other)",
  labelNames: ["provider", "cause"] as const,
  registers: [processRegistry],
});

export const rateLimitWait = new Counter({
  name: "memicl_rate_limit_wait_seconds_total",
  help: "Time calls waited for a provider's shared rate limit (requests or tokens per minute), by provider",
  labelNames: ["provider"] as const,
  registers: [processRegistry],
});

export const completionsStored = new Counter({
  name: "memicl_completions_stored_total",
  help: "Completions this process finished, by provider and status (succeeded, failed)",
  labelNames: ["provider", "status"] as const,
  registers: [processRegistry],
});

export const judgmentsMade = new Counter({
  name: "memicl_judgments_total",
  help: "Judgments this process recorded, by judge kind (HEURISTIC, LLM, HUMAN) and verdict",
  labelNames: ["judge_kind", "verdict"] as const,
  registers: [processRegistry],
});

export const resultsComputations = new Counter({
  name: "memicl_results_computations_total",
  help: "Study results computed for readers (reports, breakdowns, comparisons), by outcome (ok, error)",
  labelNames: ["outcome"] as const,
  registers: [processRegistry],
});

export const resultsComputingSeconds = new Counter({
  name: "memicl_results_computing_seconds_total",
  help:
    "Wall time spent computing study results for readers (reports, breakdowns, comparisons); a report's time " +
    "includes its memorization tables', which are breakdowns counted on their own as well",
  registers: [processRegistry],
});

export const graphqlOperations = new Counter({
  name: "memicl_graphql_operations_total",
  help: "GraphQL operations answered, by operation name, type and outcome (ok, error)",
  labelNames: ["operation", "type", "outcome"] as const,
  registers: [processRegistry],
});

export const graphqlDuration = new Histogram({
  name: "memicl_graphql_operation_duration_seconds",
  help: "Time to answer a GraphQL operation, by operation name and type",
  labelNames: ["operation", "type"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

const MAX_OPERATION_NAMES = 200;
const operationNames = new Set<string>();

/** Operation names are chosen by clients: at most 200 distinct ones become labels, the rest count as "other". */
export function operationLabel(name: string | null | undefined): string {
  if (!name) return "anonymous";
  const label = name.slice(0, 64);
  if (operationNames.has(label)) return label;
  if (operationNames.size >= MAX_OPERATION_NAMES) return "other";
  operationNames.add(label);
  return label;
}

/** Why a call is tried again, as a label. */
export function retryCause(error: ProviderCallError): string {
  if (error.status === 429) return "rate_limited";
  if (error.status !== null && error.status >= 500) return "server_error";
  if (error.message.startsWith("timeout after")) return "timeout";
  return "other";
}

interface PoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * Gauges read from the database at scrape time, so they are true across every process on it (servers and
 * workers): completions by provider and state, queue depth, circuit-breaker trips, live workers; and this
 * process's connection pool.
 */
export function databaseRegistry(dataSource: DataSource, liveWorkers: () => Promise<number>): Registry {
  const registry = new Registry();
  const pool = () => (dataSource.driver as unknown as { master?: PoolLike }).master;

  new Gauge({
    name: "memicl_db_pool_connections",
    help: "This process's database connections, by state (total, idle, waiting: requests queued for one)",
    labelNames: ["state"] as const,
    registers: [registry],
    // Registered first, so it is read before the other gauges' queries take connections: it shows the pool as
    // the process uses it, not the scrape's own queries waiting for one.
    collect() {
      const current = pool();
      this.set({ state: "total" }, current?.totalCount ?? 0);
      this.set({ state: "idle" }, current?.idleCount ?? 0);
      this.set({ state: "waiting" }, current?.waitingCount ?? 0);
    },
  });

  new Gauge({
    name: "memicl_completions",
    help: "Completions of every run on this database, by provider and state (succeeded, failed, cache_hit, waiting)",
    labelNames: ["provider", "state"] as const,
    registers: [registry],
    async collect() {
      const rows: { provider: string; done: string; failed: string; cached: string; waiting: string }[] =
        await dataSource.query(`
          SELECT provider, sum(done_count) AS done, sum(failed_count) AS failed, sum(cache_hit_count) AS cached,
                 sum(CASE WHEN status IN ('QUEUED', 'RUNNING') THEN expected_count - done_count - failed_count ELSE 0 END) AS waiting
          FROM run GROUP BY provider`);
      this.reset();
      for (const row of rows) {
        this.set({ provider: row.provider, state: "succeeded" }, Number(row.done));
        this.set({ provider: row.provider, state: "failed" }, Number(row.failed));
        this.set({ provider: row.provider, state: "cache_hit" }, Number(row.cached));
        this.set({ provider: row.provider, state: "waiting" }, Number(row.waiting));
      }
    },
  });

  new Gauge({
    name: "memicl_runs",
    help: "Runs on this database, by status",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      const rows: { status: string; count: string }[] = await dataSource.query(
        "SELECT status::text AS status, count(*) AS count FROM run GROUP BY status",
      );
      this.reset();
      for (const row of rows) this.set({ status: row.status }, Number(row.count));
    },
  });

  new Gauge({
    name: "memicl_circuit_breaker_trips",
    help: "Runs stopped by their circuit breaker (too many failures in a row), by provider",
    labelNames: ["provider"] as const,
    registers: [registry],
    async collect() {
      const rows: { provider: string; count: string }[] = await dataSource.query(
        "SELECT provider, count(*) AS count FROM run WHERE last_error LIKE 'circuit breaker:%' GROUP BY provider",
      );
      this.reset();
      for (const row of rows) this.set({ provider: row.provider }, Number(row.count));
    },
  });

  new Gauge({
    name: "memicl_cost_usd",
    help: "What the calls stored on this database cost, in US dollars, by provider (where prices are configured)",
    labelNames: ["provider"] as const,
    registers: [registry],
    async collect() {
      const rows: { provider: string; cost: string }[] = await dataSource.query(
        "SELECT provider, sum(cost_usd) AS cost FROM run GROUP BY provider",
      );
      this.reset();
      for (const row of rows) this.set({ provider: row.provider }, Number(row.cost));
    },
  });

  new Gauge({
    name: "memicl_budget_usd",
    help:
      "Budgets of experiments and runs with work left (active or paused), in US dollars, by scope, id and state: " +
      "limit, spent, in_flight (the worst case the calls in flight hold), remaining (limit - spent - in_flight)",
    labelNames: ["scope", "id", "state"] as const,
    registers: [registry],
    async collect() {
      const rows: { scope: string; id: string; limit: string; spent: string; held: string }[] =
        await dataSource.query(`
          WITH open_run AS (
            SELECT * FROM run WHERE status IN ('QUEUED', 'RUNNING', 'PAUSED_BUDGET')
          ), held AS (
            SELECT c.run_id, sum(c.reserved_usd) AS usd FROM open_run r JOIN completion c ON c.run_id = r.id
            WHERE c.status = 'RUNNING' AND c.reserved_token = c.lease_token GROUP BY c.run_id
          )
          SELECT 'experiment' AS scope, e.id::text AS id, e.max_cost_usd AS limit,
                 (SELECT coalesce(sum(cost_usd), 0) FROM run WHERE experiment_id = e.id) AS spent,
                 (SELECT coalesce(sum(h.usd), 0) FROM held h JOIN run r ON r.id = h.run_id WHERE r.experiment_id = e.id) AS held
          FROM experiment e
          WHERE e.max_cost_usd IS NOT NULL AND EXISTS (SELECT 1 FROM open_run r WHERE r.experiment_id = e.id)
          UNION ALL
          SELECT 'run', r.id::text, r.max_cost_usd, r.cost_usd, coalesce((SELECT usd FROM held WHERE run_id = r.id), 0)
          FROM open_run r WHERE r.max_cost_usd IS NOT NULL`);
      this.reset();
      for (const row of rows) {
        const labels = { scope: row.scope, id: row.id };
        const limit = Number(row.limit);
        const spent = Number(row.spent);
        const held = Number(row.held);
        this.set({ ...labels, state: "limit" }, limit);
        this.set({ ...labels, state: "spent" }, spent);
        this.set({ ...labels, state: "in_flight" }, held);
        this.set({ ...labels, state: "remaining" }, Math.max(0, limit - spent - held));
      }
    },
  });

  new Gauge({
    name: "memicl_workers_live",
    help: "Worker processes with a live heartbeat on this database",
    registers: [registry],
    async collect() {
      this.set(await liveWorkers());
    },
  });

  return registry;
}
