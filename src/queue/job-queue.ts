import { Client } from "pg";
import PgBoss from "pg-boss";
import { EntityManager } from "typeorm";
import { Logger } from "../logging/logger";

/** One completion to produce: the unit of work (run, instance, repeat). */
export interface CompletionJob {
  completionId: string;
  provider: string;
}

/** One LLM judgment of one completion, for one judging request. */
export interface JudgmentJob {
  completionId: string;
  provider: string;
  model: string;
  /** Identifies the request (a run's automatic judging, or one rejudge) so a retried job adds one judgment. */
  request: string;
  /** Version of the judge prompt (template `judge/llm`). */
  promptVersion: number;
  /** Which LLM judge: memicl's (`llm-judge-1`, the default) or the method's authors' (`time-travel-1`). */
  judgeVersion?: string;
}

export interface JobKinds {
  completion: CompletionJob;
  judgment: JudgmentJob;
}
export type JobKind = keyof JobKinds;

export interface WorkOptions {
  /** Jobs of this kind this process works on at once. */
  concurrency: number;
  /** The providers this process can call, with the calls it makes to each at once; jobs of others stay queued. */
  providers: Record<string, number>;
}

/**
 * Works on jobs: `prepare` (optional) takes each fetched batch at once (claiming its items in one statement,
 * say) and answers one value per job, which `handle` then gets with its job, one slot per job. A handler whose
 * slot-bound part is over before its promise settles (the model answered; only storing is left) calls
 * `slotFree`, and the slot takes the next job while this one finishes; the job is acknowledged when it settles.
 */
export interface JobHandler<K extends JobKind> {
  prepare?(jobs: JobKinds[K][]): Promise<unknown[]>;
  handle(job: JobKinds[K], prepared: unknown, slotFree: () => void): Promise<void>;
  /** Undoes `prepare` for jobs still buffered when the dispatcher stops (their jobs go back to the queue). */
  discard?(prepared: unknown[]): Promise<void>;
}

export interface EnqueueOptions {
  /** Enqueue inside the caller's transaction, so rows and their jobs appear together or not at all. */
  transaction?: EntityManager;
  /** Not before this many seconds from now (a retry's backoff). */
  delaySeconds?: number;
  /** Fetched before jobs of a lower priority (default 0): items a crash took back, so they do not end a run last. */
  priority?: number;
}

/** The queue behind runs. The Run and Completion rows are the record; a job only says "work on this one". */
export interface JobQueue {
  start(): Promise<void>;
  stop(): Promise<void>;
  enqueue<K extends JobKind>(kind: K, jobs: JobKinds[K][], options?: EnqueueOptions): Promise<void>;
  /**
   * Hands jobs of `kind` to `handler`, one at a time per slot: a slot takes the next job as soon as its own
   * finishes. A handler that throws fails its job, which the queue retries with backoff.
   */
  work<K extends JobKind>(kind: K, handler: JobHandler<K>, options: WorkOptions): Promise<void>;
  /** Tells this process's idle workers to look for jobs now rather than at their next poll. */
  wake(): void;
  /** Of these completions, the ones with a job of `kind` waiting to be taken (not yet handed to a worker). */
  /**
   * The ids among `completionIds` that have a job waiting, or one a worker fetched within `freshSeconds` (between
   * a fetch and its claim the item is still PENDING; a job fetched longer ago by a worker that died is not counted).
   */
  waitingCompletionIds(kind: JobKind, completionIds: string[], freshSeconds?: number): Promise<Set<string>>;
  /** Jobs this process is working on now, by kind. */
  inFlight(): Record<JobKind, number>;
}

const QUEUE_PREFIX: Record<JobKind, string> = {
  completion: "memicl-completion",
  judgment: "memicl-judgment",
};

/**
 * SQL over pg-boss's own tables, for the few places that must see queue jobs in a transaction of their own (deleting
 * an experiment discards its waiting jobs). `$1` is run ids; `queueExists` is false until the queue first starts.
 */
export const queueJobsSql = {
  queueExists: "SELECT to_regclass('pgboss.job') IS NOT NULL AS exists",
  countWaitingOfRuns: `
    SELECT count(*)::int AS count FROM pgboss.job
    WHERE name LIKE 'memicl-%' AND state IN ('created', 'retry') AND data->>'completionId' IN (
      SELECT c.id::text FROM completion c WHERE c.run_id = ANY($1::uuid[]))`,
  discardWaitingOfRuns: `
    DELETE FROM pgboss.job
    WHERE name LIKE 'memicl-%' AND state IN ('created', 'retry') AND data->>'completionId' IN (
      SELECT c.id::text FROM completion c WHERE c.run_id = ANY($1::uuid[]))`,
};

/** Jobs of one kind for one provider share a queue, so a worker takes only what it can call. */
export function queueName(kind: JobKind, provider: string): string {
  return `${QUEUE_PREFIX[kind]}.${provider}`;
}

const POLL_MS = 500;
// Acknowledging is off every call's path (a job whose completion is stored needs nothing more), so acks wait
// to share a statement.
const ACK_BATCH = 100;
const ACK_DELAY_MS = 100;
/**
 * Jobs past their slot-bound part (see `JobHandler.handle`) per slot. Storing answers in batches takes a few
 * tens of milliseconds; against a fast model, one per slot held slots back (docs/BENCHMARKS.md).
 */
const FINISHING_PER_SLOT = 4;

/** pg-boss on the service's own PostgreSQL (the embedded server or DATABASE_URL). */
export class PgBossQueue implements JobQueue {
  private readonly boss: PgBoss;
  private starting: Promise<void> | null = null;
  private readonly queues = new Map<string, Promise<void>>();
  private readonly dispatchers: Dispatcher<JobKind>[] = [];

  constructor(
    private readonly connectionString: string,
    private readonly logger: Logger,
  ) {
    this.boss = new PgBoss({
      connectionString,
      max: 4,
      application_name: "memicl-queue",
      // Dead workers' items are found by memicl's reconciler from the completions' leases, not by job expiry.
      schedule: false,
    });
    this.boss.on("error", (error: Error) => this.logger.error({ err: error }, "job queue error"));
  }

  /** Starts pg-boss (creating its schema on first use); called lazily by the first enqueue or work. */
  start(): Promise<void> {
    this.starting ??= this.boss
      .start()
      .then(() => undefined)
      .catch((error) => {
        this.starting = null;
        throw error;
      });
    return this.starting;
  }

  async stop(): Promise<void> {
    if (!this.starting) return;
    const starting = this.starting;
    this.starting = null;
    await starting.catch(() => {});
    await Promise.all(this.dispatchers.map((dispatcher) => dispatcher.stop()));
    await this.boss.stop({ graceful: true, timeout: 10_000, wait: true });
  }

  private ensureQueue(name: string): Promise<void> {
    let created = this.queues.get(name);
    if (!created) {
      created = this.createQueue(name);
      created.catch(() => this.queues.delete(name));
      this.queues.set(name, created);
    }
    return created;
  }

  /**
   * Creates a queue (pg-boss makes a table partition for it) under an advisory lock held on a connection of its
   * own, so that processes starting together take turns: two creating queues at once deadlocked in PostgreSQL.
   */
  private async createQueue(name: string): Promise<void> {
    if (await this.boss.getQueue(name)) return;
    const client = new Client({
      connectionString: this.connectionString,
      application_name: "memicl-queue-setup",
    });
    client.on("error", () => {});
    await client.connect();
    try {
      await client.query("SELECT pg_advisory_lock(hashtext('memicl:queue-setup'))");
      if (await this.boss.getQueue(name)) return;
      await this.boss.createQueue(name, {
        name,
        // Handler failures (the database unreachable, say) are retried; model errors never reach the queue.
        retryLimit: 50,
        retryDelay: 1,
        retryBackoff: true,
        expireInSeconds: 3 * 3600,
      });
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('memicl:queue-setup'))").catch(() => {});
      await client.end().catch(() => {});
    }
  }

  async enqueue<K extends JobKind>(
    kind: K,
    jobs: JobKinds[K][],
    options: EnqueueOptions = {},
  ): Promise<void> {
    if (jobs.length === 0) return;
    await this.start();
    const providers = [...new Set(jobs.map((job) => job.provider))];
    for (const provider of providers) await this.ensureQueue(queueName(kind, provider));
    const transaction = options.transaction;
    const db = transaction
      ? {
          executeSql: async (text: string, values?: unknown[]) => {
            const result = await transaction.queryRunner!.query(text, values, true);
            return { rows: result.records };
          },
        }
      : undefined;
    const startAfter = options.delaySeconds ? new Date(Date.now() + options.delaySeconds * 1000) : undefined;
    for (let start = 0; start < jobs.length; start += 5_000) {
      const chunk: PgBoss.JobInsert[] = jobs.slice(start, start + 5_000).map((job) => ({
        name: queueName(kind, job.provider),
        data: job,
        ...(startAfter ? { startAfter } : {}),
        ...(options.priority ? { priority: options.priority } : {}),
      }));
      if (db) await this.boss.insert(chunk, { db });
      else await this.boss.insert(chunk);
    }
  }

  async work<K extends JobKind>(kind: K, handler: JobHandler<K>, options: WorkOptions): Promise<void> {
    await this.start();
    for (const provider of Object.keys(options.providers)) await this.ensureQueue(queueName(kind, provider));
    const dispatcher = new Dispatcher<K>(this.boss, kind, handler, options, this.logger);
    this.dispatchers.push(dispatcher as unknown as Dispatcher<JobKind>);
    dispatcher.run();
  }

  wake(): void {
    for (const dispatcher of this.dispatchers) dispatcher.wake();
  }

  async waitingCompletionIds(kind: JobKind, completionIds: string[], freshSeconds = 0): Promise<Set<string>> {
    if (completionIds.length === 0) return new Set();
    await this.start();
    const { rows } = await this.boss.getDb().executeSql(
      `SELECT DISTINCT data->>'completionId' AS id FROM pgboss.job
       WHERE name LIKE $1 AND data->>'completionId' = ANY($2::text[])
         AND (state IN ('created', 'retry')
              OR (state = 'active' AND started_on > now() - make_interval(secs => $3)))`,
      [`${QUEUE_PREFIX[kind]}.%`, completionIds, freshSeconds],
    );
    return new Set(rows.map((row: { id: string }) => row.id));
  }

  inFlight(): Record<JobKind, number> {
    const counts: Record<JobKind, number> = { completion: 0, judgment: 0 };
    for (const dispatcher of this.dispatchers) counts[dispatcher.kind] += dispatcher.working;
    return counts;
  }
}

interface Buffered<K extends JobKind> {
  job: PgBoss.Job<JobKinds[K]>;
  prepared: unknown;
}

/**
 * A pool of slots over pg-boss's fetch/complete/fail. Each slot takes the next job as soon as its own
 * finishes, from a small local buffer the fetch loop keeps filled (so a freed slot does not wait for a
 * round trip); each provider has its own limit and its own buffer; a provider whose queue came back empty
 * is not asked again until the poll interval passes or something is enqueued here. Jobs are acknowledged in
 * small batches. A buffered job of a process that dies is only a job: its completion was never claimed, and
 * the reconciler queues it again.
 */
class Dispatcher<K extends JobKind> {
  private busy = 0;
  /** Jobs whose slot was freed early (see `JobHandler.handle`) and that have not settled yet. */
  private finishing = 0;

  /** Jobs in a slot or finishing outside one. */
  get working(): number {
    return this.busy + this.finishing;
  }
  private readonly perProvider = new Map<string, number>();
  private readonly buffers = new Map<string, Buffered<K>[]>();
  private readonly idleUntil = new Map<string, number>();
  private running = true;
  private signal: (() => void) | null = null;
  private readonly acks = new Map<string, string[]>();
  private ackTimer: NodeJS.Timeout | null = null;
  private readonly handlers = new Set<Promise<void>>();
  private loop: Promise<void> | null = null;
  private readonly providerNames: string[];
  private next = 0;

  constructor(
    private readonly boss: PgBoss,
    readonly kind: K,
    private readonly handler: JobHandler<K>,
    private readonly options: WorkOptions,
    private readonly logger: Logger,
  ) {
    this.providerNames = Object.keys(options.providers);
    for (const name of this.providerNames) this.buffers.set(name, []);
  }

  run(): void {
    this.loop = this.fetchLoop().catch((error) =>
      this.logger.error({ err: error }, "job dispatcher stopped"),
    );
  }

  /** Something was enqueued in this process: look at every provider's queue now. */
  wake(): void {
    this.idleUntil.clear();
    this.poke();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
    await Promise.allSettled([...this.handlers]);
    // Jobs still buffered go back to the queue at once rather than waiting for their expiry.
    for (const [provider, buffered] of this.buffers) {
      if (buffered.length === 0) continue;
      await this.handler
        .discard?.(buffered.map(({ prepared }) => prepared))
        .catch((error) =>
          this.logger.warn({ err: error }, "could not give back buffered work; the reconciler will"),
        );
      await this.boss
        .fail(
          queueName(this.kind, provider),
          buffered.map(({ job }) => job.id),
        )
        .catch(() => {});
      buffered.length = 0;
    }
    await this.flushAcks();
  }

  private poke(): void {
    const signal = this.signal;
    this.signal = null;
    signal?.();
  }

  /** Free capacity for a provider: its own limit minus what it runs and holds in its buffer. */
  private room(provider: string): number {
    const limit = this.options.providers[provider];
    const prefetch = Math.max(1, Math.ceil(limit / 2));
    return limit + prefetch - (this.perProvider.get(provider) ?? 0) - this.buffers.get(provider)!.length;
  }

  private async fetchLoop(): Promise<void> {
    while (this.running) {
      let fetched = 0;
      const now = Date.now();
      for (let index = 0; index < this.providerNames.length && this.running; index++) {
        const provider = this.providerNames[(this.next + index) % this.providerNames.length];
        const room = this.room(provider);
        // Fetch in batches: wait until half of the room is free, unless the buffer ran dry.
        const batchFloor =
          this.buffers.get(provider)!.length === 0 ? 1 : Math.ceil(this.options.providers[provider] / 2);
        if (room < batchFloor || (this.idleUntil.get(provider) ?? 0) > now) continue;
        let jobs: PgBoss.Job<JobKinds[K]>[];
        try {
          jobs = await this.boss.fetch<JobKinds[K]>(queueName(this.kind, provider), { batchSize: room });
        } catch (error) {
          this.logger.error({ err: error, provider }, "could not fetch jobs; trying again in a second");
          this.idleUntil.set(provider, Date.now() + 1_000);
          continue;
        }
        if (jobs.length < room) this.idleUntil.set(provider, Date.now() + POLL_MS);
        if (jobs.length === 0) continue;
        let prepared: unknown[];
        try {
          prepared = this.handler.prepare ? await this.handler.prepare(jobs.map((job) => job.data)) : [];
        } catch (error) {
          this.logger.error(
            { err: error, provider },
            "could not prepare fetched jobs; the queue will retry them",
          );
          await this.boss
            .fail(
              queueName(this.kind, provider),
              jobs.map((job) => job.id),
            )
            .catch(() => {});
          continue;
        }
        this.buffers.get(provider)!.push(...jobs.map((job, index) => ({ job, prepared: prepared[index] })));
        fetched += jobs.length;
      }
      this.next += 1;
      this.fillSlots();
      if (!this.running) break;
      if (fetched === 0) await this.pause(POLL_MS);
    }
  }

  /** Hands buffered jobs to free slots, round-robin across providers within their limits. */
  private fillSlots(): void {
    let progress = true;
    while (progress && this.busy < this.options.concurrency) {
      progress = false;
      for (const provider of this.providerNames) {
        if (this.busy >= this.options.concurrency) break;
        const buffered = this.buffers.get(provider)!;
        if (
          buffered.length === 0 ||
          (this.perProvider.get(provider) ?? 0) >= this.options.providers[provider]
        )
          continue;
        this.dispatch(provider, buffered.shift()!);
        progress = true;
      }
    }
  }

  /** Waits for a slot to free, a wake-up, or `ms`. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.signal = null;
        resolve();
      }, ms);
      this.signal = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private dispatch(provider: string, { job, prepared }: Buffered<K>): void {
    this.busy += 1;
    this.perProvider.set(provider, (this.perProvider.get(provider) ?? 0) + 1);
    let slotHeld = true;
    let settledOutside = false;
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      this.busy -= 1;
      this.perProvider.set(provider, (this.perProvider.get(provider) ?? 1) - 1);
      // The next buffered job starts at once; the fetch loop refills the buffer.
      if (this.running) this.fillSlots();
      this.poke();
    };
    const slotFree = () => {
      // At most FINISHING_PER_SLOT x `concurrency` jobs finish outside their slots: past that (storing is slower
      // than calling), a job keeps its slot until it settles, which holds the pace to what storing keeps up with.
      if (!slotHeld || this.finishing >= this.options.concurrency * FINISHING_PER_SLOT) return;
      this.finishing += 1;
      settledOutside = true;
      freeSlot();
    };
    const handled = this.handler
      .handle(job.data, prepared, slotFree)
      .then(
        () => this.ack(job.name, job.id),
        async (error: Error) => {
          this.logger.error(
            { err: error, kind: this.kind, job: job.data },
            "job failed; the queue will retry it",
          );
          await this.boss
            .fail(job.name, job.id, { message: String(error?.message ?? error) })
            .catch((failure) => this.logger.error({ err: failure }, "could not mark a job failed"));
        },
      )
      .finally(() => {
        if (settledOutside) this.finishing -= 1;
        this.handlers.delete(handled);
        freeSlot();
      });
    this.handlers.add(handled);
  }

  private ack(queue: string, id: string): void {
    const ids = this.acks.get(queue) ?? [];
    ids.push(id);
    this.acks.set(queue, ids);
    if (ids.length >= ACK_BATCH) void this.flushAcks();
    else this.ackTimer ??= setTimeout(() => void this.flushAcks(), ACK_DELAY_MS);
  }

  private async flushAcks(): Promise<void> {
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    const batches = [...this.acks.entries()];
    this.acks.clear();
    for (const [queue, ids] of batches) {
      // A job left unacknowledged (the process died first) is harmless: its completion is already written,
      // and whoever takes the job again finds nothing to do.
      await this.boss
        .complete(queue, ids)
        .catch((error) => this.logger.warn({ err: error }, "could not acknowledge jobs"));
    }
  }
}
