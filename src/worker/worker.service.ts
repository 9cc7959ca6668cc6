import { DataSource } from "typeorm";
import { ProviderConfig } from "../llm/provider-config";
import { Worker } from "./worker.entity";
import { deadAfterSeconds, liveWorkersSql, WorkerTiming } from "./worker.sql";

/** A configured provider as this process sees it, and who can call it. */
export interface ProviderState {
  name: string;
  type: string;
  usableHere: boolean;
  unusableReason: string | null;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  liveWorkers: number;
}

/** Who is working on the queue, and which providers someone can call. */
export class WorkerService {
  constructor(
    private readonly dataSource: DataSource,
    /** This process's configured providers, by name. */
    private readonly providers: Record<string, ProviderConfig>,
    private readonly timing: WorkerTiming,
  ) {}

  async live(): Promise<Worker[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(liveWorkersSql, [
      deadAfterSeconds(this.timing),
    ]);
    return rows.map((row) =>
      Object.assign(new Worker(), {
        id: row.id,
        host: row.host,
        pid: row.pid,
        role: row.role,
        startedAt: row.started_at,
        lastSeenAt: row.last_seen_at,
        concurrency: row.concurrency,
        providers: row.providers,
        inFlight: row.in_flight,
        runIds: row.run_ids,
        codeVersion: row.code_version,
      }),
    );
  }

  async providerStates(): Promise<ProviderState[]> {
    const workers = await this.live();
    const here = Object.keys(this.providers)
      .sort()
      .map((name) => this.providers[name])
      .map((config: ProviderConfig) => ({
        name: config.name,
        type: config.type,
        usableHere: config.unusableReason === null,
        unusableReason: config.unusableReason,
        maxConcurrency: config.maxConcurrency,
        requestsPerMinute: config.requestsPerMinute,
        tokensPerMinute: config.tokensPerMinute,
        liveWorkers: workers.filter((worker) => worker.providers.includes(config.name)).length,
      }));
    // Providers only the live workers know: work can be queued for them from here, and they do it.
    const known = new Set(here.map((state) => state.name));
    const elsewhere = [...new Set(workers.flatMap((worker) => worker.providers))]
      .filter((name) => !known.has(name))
      .sort()
      .map((name) => ({
        name,
        type: "unknown here",
        usableHere: false,
        unusableReason: "not configured in this process (its MEMICL_PROVIDERS_FILE does not name it)",
        maxConcurrency: 0,
        requestsPerMinute: null,
        tokensPerMinute: null,
        liveWorkers: workers.filter((worker) => worker.providers.includes(name)).length,
      }));
    return [...here, ...elsewhere];
  }

  /** Warnings for work about to be queued for `provider`: nobody alive can call it. */
  async warningsFor(provider: string): Promise<string[]> {
    const workers = await this.live();
    if (workers.some((worker) => worker.providers.includes(provider))) return [];
    const others = workers.length;
    return [
      others === 0
        ? `no memicl serve or memicl worker is running on this database: nothing will work on it until one starts`
        : `no live worker can call provider "${provider}" (${others} live worker(s) lack it: is its key set where they run?); it waits until one that can starts`,
    ];
  }
}
