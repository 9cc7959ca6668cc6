import { Client } from "pg";
import PgBoss from "pg-boss";
import { Logger } from "../logging/logger";
import { Dispatcher } from "./dispatcher";
import {
  EnqueueOptions,
  JobHandler,
  JobKind,
  JobKinds,
  JobQueue,
  QUEUE_PREFIX,
  queueName,
  WorkOptions,
} from "./job-queue";

/** pg-boss on the service's own PostgreSQL (the embedded server or DATABASE_URL). */
export class PgBossQueue implements JobQueue {
  private boss: PgBoss;
  private starting: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;
  private readonly queues = new Map<string, Promise<void>>();
  private readonly dispatchers: Dispatcher<JobKind>[] = [];

  constructor(
    private readonly connectionString: string,
    private readonly logger: Logger,
    private readonly poolSize = 4,
  ) {
    this.boss = this.newBoss();
  }

  private newBoss(): PgBoss {
    const boss = new PgBoss({
      connectionString: this.connectionString,
      max: this.poolSize,
      application_name: "memicl-queue",
      // Dead workers' items are found by memicl's reconciler from the completions' leases, not by job expiry.
      schedule: false,
    });
    boss.on("error", (error: Error) => this.logger.error({ err: error }, "job queue error"));
    return boss;
  }

  /**
   * Starts pg-boss (creating its schema on first use); called lazily by the first enqueue or work, and again by
   * a use after `stop()` (a reconciler pass that outlived its workers, say). While a stop runs, what comes (a job
   * handler finishing its work, which the stop waits for) is served by the instance being stopped, as before.
   */
  start(): Promise<void> {
    if (this.stopping && !this.starting) return Promise.resolve();
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
    if (!this.starting) return this.stopping ?? undefined;
    const starting = this.starting;
    this.starting = null;
    const stopping = this.stopStarted(starting);
    const settled = stopping.catch(() => {});
    this.stopping = settled;
    try {
      await stopping;
    } finally {
      if (this.stopping === settled) this.stopping = null;
    }
  }

  private async stopStarted(starting: Promise<void>): Promise<void> {
    await starting.catch(() => {});
    const dispatchers = this.dispatchers.splice(0);
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()));
    await this.boss.stop({ graceful: true, timeout: 10_000, wait: true });
    // A pg-boss instance does not start twice: started again, its upkeep timer outlives the next stop (its
    // supervisor stays marked stopped, so that stop skips clearing it) and keeps the process alive. A later
    // start gets a fresh one.
    this.boss = this.newBoss();
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
   * The lock is a transaction's (held open while pg-boss works on its own connections), so that it stays on one
   * server connection through a transaction-mode pooler.
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
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(hashtext('memicl:queue-setup'))");
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
      await client.query("COMMIT").catch(() => {});
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

  async settleOrphanedJobs(kind: JobKind, olderThanSeconds: number, limit: number): Promise<number> {
    await this.start();
    // A crashed worker's fetched jobs stayed active until pg-boss expired them (3 h), then ran again for nothing.
    const result = await this.boss.getDb().executeSql(
      `WITH orphaned AS (
         SELECT j.id FROM pgboss.job j
         WHERE j.name LIKE $1 AND j.state = 'active' AND j.started_on < now() - make_interval(secs => $2)
           AND NOT EXISTS (SELECT 1 FROM completion c
                           WHERE c.id = (j.data->>'completionId')::bigint AND c.status = 'RUNNING')
         -- In id order, skipping a job pg-boss is acknowledging this moment: never a wait in a cycle with it.
         ORDER BY j.id
         LIMIT $3
         FOR UPDATE OF j SKIP LOCKED
       )
       UPDATE pgboss.job SET state = 'completed', completed_on = now(),
              output = '{"memicl":"its worker is gone; the item was released or is done"}'::jsonb
       WHERE id IN (SELECT id FROM orphaned) AND state = 'active'
       RETURNING id`,
      [`${QUEUE_PREFIX[kind]}.%`, olderThanSeconds, limit],
    );
    return result?.rows?.length ?? 0;
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
