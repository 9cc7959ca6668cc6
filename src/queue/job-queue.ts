import { PgBoss } from "pg-boss";
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
}

export interface JobKinds {
  completion: CompletionJob;
  judgment: JudgmentJob;
}
export type JobKind = keyof JobKinds;

export interface WorkOptions {
  /** Completions this process works on at once. */
  concurrency: number;
  /** Calls in flight per provider across every process on the database. */
  providerConcurrency: Record<string, number>;
}

/** The queue behind runs. The Run and Completion rows are the record; a job only says "work on this one". */
export interface JobQueue {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Enqueues inside the caller's transaction, so a run and its jobs appear together or not at all. */
  enqueue<K extends JobKind>(kind: K, jobs: JobKinds[K][], transaction?: EntityManager): Promise<void>;
  /** Hands batches of jobs to `handler`, which answers with the failure (or null) of each job, by position. */
  work<K extends JobKind>(
    kind: K,
    handler: (jobs: JobKinds[K][]) => Promise<(Error | null)[]>,
    options: WorkOptions,
  ): Promise<void>;
  /** Tells this process's idle workers to look for jobs now rather than at their next poll. */
  wake(): void;
}

const QUEUES: Record<JobKind, string> = { completion: "memicl-completion", judgment: "memicl-judgment" };
const BATCH = 8;

/** pg-boss on the service's own PostgreSQL (or on the embedded database, through its socket). */
export class PgBossQueue implements JobQueue {
  private readonly boss: PgBoss;
  private starting: Promise<void> | null = null;
  private readonly workerIds: string[] = [];

  constructor(
    connectionString: string,
    private readonly logger: Logger,
    private readonly leaseSeconds: number,
  ) {
    this.boss = new PgBoss({
      connectionString,
      max: 4,
      application_name: "memicl-queue",
      // Jobs of a worker that died are noticed and handed out again well within a lease or two.
      superviseIntervalSeconds: Math.max(1, Math.min(60, Math.floor(leaseSeconds / 2))),
    });
    this.boss.on("error", (error) => this.logger.error({ err: error }, "job queue error"));
  }

  /** Starts pg-boss (creating its schema on first use); called lazily by the first enqueue or work. */
  start(): Promise<void> {
    this.starting ??= this.boot().catch((error) => {
      this.starting = null;
      throw error;
    });
    return this.starting;
  }

  private async boot(): Promise<void> {
    await this.boss.start();
    for (const queue of Object.values(QUEUES)) {
      await this.boss.createQueue(queue, {
        // A job whose worker vanished expires after its completion's lease has lapsed, then is retried.
        expireInSeconds: this.leaseSeconds + 10,
        retryLimit: 20,
        retryDelay: 1,
        retryBackoff: true,
        retryDelayMax: 60,
      });
    }
  }

  async stop(): Promise<void> {
    if (!this.starting) return;
    const starting = this.starting;
    this.starting = null;
    await starting.catch(() => {});
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }

  async enqueue<K extends JobKind>(kind: K, jobs: JobKinds[K][], transaction?: EntityManager): Promise<void> {
    if (jobs.length === 0) return;
    await this.start();
    const db = transaction
      ? {
          executeSql: async (text: string, values?: unknown[]) => {
            const result = await transaction.queryRunner!.query(text, values, true);
            return { rows: result.records };
          },
        }
      : undefined;
    for (let start = 0; start < jobs.length; start += 5_000) {
      const chunk = jobs.slice(start, start + 5_000).map((job) => ({
        data: job,
        group: { id: job.provider, tier: job.provider },
      }));
      await this.boss.insert(QUEUES[kind], chunk, db ? { db } : undefined);
    }
  }

  async work<K extends JobKind>(
    kind: K,
    handler: (jobs: JobKinds[K][]) => Promise<(Error | null)[]>,
    options: WorkOptions,
  ): Promise<void> {
    await this.start();
    const workerId = await this.boss.work<JobKinds[K]>(
      QUEUES[kind],
      {
        batchSize: BATCH,
        localConcurrency: Math.max(1, Math.ceil(options.concurrency / BATCH)),
        burstWhenBatchFull: true,
        pollingIntervalSeconds: 0.5,
        perJobResults: true,
        groupConcurrency: { default: 8, tiers: options.providerConcurrency },
      },
      async (jobs) => {
        let outcomes: (Error | null)[];
        try {
          outcomes = await handler(jobs.map((job) => job.data));
        } catch (error) {
          outcomes = jobs.map(() => error as Error);
        }
        return jobs.map((job, index) => {
          const error = outcomes[index] ?? null;
          if (!error) return { id: job.id, status: "completed" as const };
          this.logger.error(
            { err: error, kind, completionId: job.data.completionId },
            "job failed; it will be retried",
          );
          return {
            id: job.id,
            status: "failed" as const,
            output: { message: String(error.message ?? error) },
          };
        });
      },
    );
    this.workerIds.push(workerId);
  }

  wake(): void {
    for (const id of this.workerIds) this.boss.notifyWorker(id);
  }
}
