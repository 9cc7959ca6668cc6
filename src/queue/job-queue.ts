import { EntityManager } from "typeorm";

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
  /**
   * Ends (as completed) at most `limit` jobs left active by a worker that is gone: fetched over `olderThanSeconds`
   * ago, for an item no claim holds now (it waits again, or is done). Returns how many.
   */
  settleOrphanedJobs(kind: JobKind, olderThanSeconds: number, limit: number): Promise<number>;
  /** Jobs this process is working on now, by kind. */
  inFlight(): Record<JobKind, number>;
}

export const QUEUE_PREFIX: Record<JobKind, string> = {
  completion: "memicl-completion",
  judgment: "memicl-judgment",
};

/**
 * The one place outside the pg-boss adapter that reads pg-boss's tables: deleting an experiment discards its
 * waiting jobs inside the deletion's own transaction. Both are 0 / no-ops until the queue first starts.
 */
export async function waitingJobsOfRuns(manager: EntityManager, runIds: string[]): Promise<number> {
  const ids = await completionIdsWithQueue(manager, runIds);
  if (ids.length === 0) return 0;
  const [{ count }] = await manager.query(`SELECT count(*)::int AS count FROM pgboss.job ${WAITING_OF}`, [
    ids,
  ]);
  return count;
}

export async function discardWaitingJobsOfRuns(manager: EntityManager, runIds: string[]): Promise<void> {
  const ids = await completionIdsWithQueue(manager, runIds);
  if (ids.length > 0) await manager.query(`DELETE FROM pgboss.job ${WAITING_OF}`, [ids]);
}

/**
 * The runs' completion ids as the jobs' data holds them (text); none when the queue has never started. They are
 * read first and passed as one array parameter, which PostgreSQL matches through a hash table: written as
 * `IN (SELECT ...)` in the same statement, the planner trusted the job table's statistics (a few rows, before
 * it is first analyzed) and compared every job with every completion. A dry run of deleting an experiment with
 * 7,000 queued completions took 11 s that way, and 0.04 s this way (docs/BENCHMARKS.md).
 */
async function completionIdsWithQueue(manager: EntityManager, runIds: string[]): Promise<string[]> {
  if (runIds.length === 0 || !(await queueExists(manager))) return [];
  const rows: { id: string }[] = await manager.query(
    "SELECT id::text AS id FROM completion WHERE run_id = ANY($1::uuid[])",
    [runIds],
  );
  return rows.map((row) => row.id);
}

const WAITING_OF = `
  WHERE name LIKE 'memicl-%' AND state IN ('created', 'retry') AND data->>'completionId' = ANY($1::text[])`;

async function queueExists(manager: EntityManager): Promise<boolean> {
  const [{ exists }] = await manager.query("SELECT to_regclass('pgboss.job') IS NOT NULL AS exists");
  return exists;
}

/** Jobs of one kind for one provider share a queue, so a worker takes only what it can call. */
export function queueName(kind: JobKind, provider: string): string {
  return `${QUEUE_PREFIX[kind]}.${provider}`;
}
