import os from "node:os";
import { DataSource } from "typeorm";
import { MaintenanceLease } from "../common/maintenance-lease";
import { isProcessAlive } from "../common/process";
import { Logger } from "../logging/logger";
import { QUIZ_ITEM_READY } from "../option-set/option-set.sql";
import { JobQueue } from "../queue/job-queue";
import { leaseLapsed } from "../worker/lease";
import { deadAfterSeconds, WorkerTiming } from "../worker/worker.sql";

export interface ReconcileResult {
  deadWorkers: number;
  released: number;
  requeued: number;
}

/**
 * How long a fetched job's item may stay unclaimed before the job counts as lost: a worker claims what it fetched
 * in the next statement (milliseconds); a fetch whose answer never arrived (the database died under it) leaves
 * active jobs nobody works on, which a lease-long window made wait 30 s.
 */
const FETCH_TO_CLAIM_SECONDS = 5;

/** Waiting items looked at per statement. */
const BATCH = 5_000;

/** Waiting items looked at per pass at most; the next pass goes on from there. */
const PASS_ITEMS = 20_000;

/** Where each database's next pass goes on from (a waiting item's id; "0": the start). */
const cursors = new WeakMap<DataSource, string>();

/**
 * Keeps the invariant "every completion of an active run that is not finished has a live lease or a waiting
 * job". One pass:
 * 1. workers that stopped beating (or, on this host, whose process is gone) are removed;
 * 2. items claimed by a worker that is gone, or whose lease lapsed, are released;
 * 3. waiting items of active runs that have no waiting job get one: the items just released first, then the
 *    waiting items, a batch at a time, at most PASS_ITEMS a pass, going on where the last pass stopped;
 * 4. each active run with waiting items gets a `waitingReason` when no live worker can call its provider,
 *    or when its provider's rate limit is what it waits for; a run with calls in provider batches says so.
 * Only one process reconciles at a time (a lease, src/common/maintenance-lease.ts, renewed as the pass goes: it holds no
 * connection, so the pass never waits for a second one while holding a first); the others skip the pass.
 */
export async function reconcile(
  dataSource: DataSource,
  queue: JobQueue,
  logger: Logger,
  timing: WorkerTiming,
  batchSize = BATCH,
  passItems = PASS_ITEMS,
): Promise<ReconcileResult | null> {
  const lease = new MaintenanceLease(dataSource, "reconciler", RECONCILER_LEASE_SECONDS);
  return lease.run((held) =>
    reconcileLocked(dataSource, queue, logger, timing, { batchSize, passItems }, held),
  );
}

/**
 * How long the reconciler's lease lasts without renewal: the pass renews it after each of its statements, so a
 * holder that stops making progress (a process stopped, a connection that hangs) frees it within this time.
 */
export const RECONCILER_LEASE_SECONDS = 30;

/** The pass lost its lease (it stalled past it, and another process took it): it stops where it is. */
class LeaseLost extends Error {}

async function reconcileLocked(
  dataSource: DataSource,
  queue: JobQueue,
  logger: Logger,
  timing: WorkerTiming,
  sizes: { batchSize: number; passItems: number },
  lease: MaintenanceLease,
): Promise<ReconcileResult> {
  const progress = async () => {
    if (!(await lease.renew())) throw new LeaseLost("the reconciler's lease lapsed; another process has it");
  };
  try {
    return await reconcilePass(dataSource, queue, logger, timing, sizes, progress);
  } catch (error) {
    if (!(error instanceof LeaseLost)) throw error;
    logger.warn({ err: error }, "reconcile pass stopped: its lease lapsed");
    return { deadWorkers: 0, released: 0, requeued: 0 };
  }
}

async function reconcilePass(
  dataSource: DataSource,
  queue: JobQueue,
  logger: Logger,
  timing: WorkerTiming,
  { batchSize, passItems }: { batchSize: number; passItems: number },
  progress: () => Promise<void>,
): Promise<ReconcileResult> {
  const sameHost: { id: string; pid: number }[] = await dataSource.query(
    "SELECT id, pid FROM worker WHERE host = $1",
    [os.hostname()],
  );
  const goneHere = sameHost.filter((worker) => !isProcessAlive(worker.pid)).map((worker) => worker.id);
  const [dead]: [{ id: string }[], number] = await dataSource.query(
    `DELETE FROM worker
     WHERE last_seen_at < clock_timestamp() - make_interval(secs => $1) OR id = ANY($2::uuid[])
     RETURNING id`,
    [deadAfterSeconds(timing), goneHere],
  );
  const [released]: [{ id: string }[], number] = await dataSource.query(
    // An item in a provider batch is the batch's (src/batch/), not a worker's: it has no lease to lapse.
    `UPDATE completion SET status = 'PENDING', lease_token = NULL, lease_until = NULL, lease_owner = NULL
     WHERE status = 'RUNNING' AND batch_id IS NULL
       AND (${leaseLapsed("completion")}
            OR lease_owner IS NULL
            OR NOT EXISTS (SELECT 1 FROM worker WHERE worker.id = completion.lease_owner))
     RETURNING id`,
  );
  // Jobs a gone worker fetched and left active end here, a bounded number a pass (their items are queued below).
  const settledJobs = await queue.settleOrphanedJobs("completion", FETCH_TO_CLAIM_SECONDS, batchSize);
  if (settledJobs > 0) logger.info({ settledJobs }, "ended jobs left active by workers that are gone");
  await progress();
  // Crash orphans first: the items just released are queued again before anything else is looked at.
  // Their jobs (active, fetched by the claim that is gone) do not count as queued: freshSeconds 0.
  let requeued = await requeueUnqueued(
    dataSource,
    queue,
    { priority: 1, freshSeconds: 0 },
    await dataSource.query(
      `SELECT c.id::text AS id, r.provider FROM completion c JOIN run r ON r.id = c.run_id
       WHERE c.id = ANY($1::bigint[]) AND r.status IN ('QUEUED', 'RUNNING') AND c.status = 'PENDING'
         AND c.batch_attempts >= r.batch_attempts AND ${QUIZ_ITEM_READY}`,
      [released.map((row) => row.id)],
    ),
  );
  // Then the waiting items of active runs, a batch at a time by id, at most `PASS_ITEMS` a pass from where this
  // process's last pass stopped, wrapping round at the end: every item of a backlog of any size is looked at
  // within a few beats (looking at the first 20,000 only left orphans behind a backlog no worker could call
  // unqueued), and no pass reads the whole backlog (140,000 waiting items kept PostgreSQL at half a core).
  let after = cursors.get(dataSource) ?? "0";
  let looked = 0;
  for (;;) {
    const waiting: { id: string; provider: string }[] = await dataSource.query(
      // Items a batch run still sends in a batch get no job: the batch coordinator takes them (src/batch/).
      `SELECT c.id::text AS id, r.provider FROM completion c JOIN run r ON r.id = c.run_id
       WHERE r.status IN ('QUEUED', 'RUNNING') AND c.status = 'PENDING' AND c.id > $1::bigint
         AND c.batch_attempts >= r.batch_attempts AND ${QUIZ_ITEM_READY}
       ORDER BY c.id LIMIT $2`,
      [after, batchSize],
    );
    if (waiting.length === 0) break;
    requeued += await requeueUnqueued(dataSource, queue, { freshSeconds: FETCH_TO_CLAIM_SECONDS }, waiting);
    await progress();
    after = waiting[waiting.length - 1].id;
    looked += waiting.length;
    if (waiting.length < batchSize) {
      after = "0";
      break;
    }
    if (looked >= passItems) break;
  }
  cursors.set(dataSource, after);
  // The runs whose reason changed are locked in id order, as every statement that moves several runs locks them
  // (locked in the join's order, this statement deadlocked with an answer's store under twenty workers), and a run
  // another statement holds is left to the next beat rather than waited for.
  await dataSource.query(
    `WITH reason AS (
       SELECT r.id,
              CASE WHEN open_batch.n > 0
                   THEN format('%s request(s) in %s batch(es) at provider "%s" (%s): %s answered so far',
                               open_batch.requests, open_batch.n, r.provider, open_batch.statuses, open_batch.answered)
                   WHEN NOT EXISTS (SELECT 1 FROM completion c WHERE c.run_id = r.id AND c.status = 'PENDING')
                   THEN NULL
                   WHEN r.kind = 'QUIZ' AND NOT EXISTS (
                     SELECT 1 FROM completion c WHERE c.run_id = r.id AND c.status = 'PENDING' AND ${QUIZ_ITEM_READY})
                   THEN format('waiting for the options of %s instance(s) from option set %s (its generation run: %s)',
                               (SELECT count(*) FROM completion c WHERE c.run_id = r.id AND c.status = 'PENDING'),
                               r.option_set_id,
                               coalesce((SELECT string_agg(g.id || ' ' || lower(g.status::text), ', ') FROM run g
                                         WHERE g.option_set_id = r.option_set_id AND g.kind = 'QUIZ_OPTIONS'),
                                        'none; start the quiz again to generate them'))
                   WHEN NOT EXISTS (
                     SELECT 1 FROM worker w
                     WHERE w.last_seen_at > clock_timestamp() - make_interval(secs => $1) AND r.provider = ANY(w.providers))
                   THEN format('no live worker can call provider "%s"', r.provider)
                   WHEN limit_wait.until IS NOT NULL
                   THEN format('waiting for the %s-per-minute limit of provider "%s" (%s per minute); next slot about %sZ',
                               limit_wait.kind, r.provider, limit_wait.per_minute,
                               to_char(limit_wait.until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'))
              END AS text
       FROM run r
       LEFT JOIN LATERAL (
         -- A limit holds the provider's requests back when one was denied lately and expects its slot ahead.
         -- The configured limit: a minute's refill, and for requests the burst too (requestBucket refills the
         -- rest, so that no minute holds more than the limit).
         SELECT b.kind,
                CASE WHEN b.kind = 'requests' THEN floor(b.capacity + b.refill_per_second * 60 + 0.001)
                     ELSE round(b.refill_per_second * 60) END::bigint AS per_minute,
                b.waiting_until AS until
         FROM provider_rate_bucket b
         WHERE b.provider = r.provider AND b.waiting_until > clock_timestamp() - interval '1 second'
         ORDER BY b.waiting_until DESC LIMIT 1
       ) AS limit_wait ON true
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS n, coalesce(sum(b.request_count), 0)::int AS requests,
                coalesce(sum(b.completed_count), 0)::int AS answered,
                coalesce(string_agg(DISTINCT coalesce(b.provider_status, 'submitting'), ', '), '') AS statuses
         FROM provider_batch b WHERE b.run_id = r.id AND b.state <> 'COLLECTED'
       ) AS open_batch
       WHERE r.status IN ('QUEUED', 'RUNNING')
     ), changed AS (
       SELECT run.id, reason.text FROM run JOIN reason ON reason.id = run.id
       -- Checked again on the locked row: a run paused (for its budget, say) since the reasons were read keeps the
       -- reason its pause wrote.
       WHERE run.waiting_reason IS DISTINCT FROM reason.text AND run.status IN ('QUEUED', 'RUNNING')
       ORDER BY run.id
       FOR UPDATE OF run SKIP LOCKED
     )
     UPDATE run SET waiting_reason = changed.text FROM changed WHERE run.id = changed.id`,
    [deadAfterSeconds(timing)],
  );
  if (dead.length + released.length + requeued > 0)
    logger.info(
      { deadWorkers: dead.length, released: released.length, requeued },
      "reconciled: released the items of workers that are gone and queued what had no job",
    );
  return { deadWorkers: dead.length, released: released.length, requeued };
}

/** Queues the items among `waiting` that have no job (and are still waiting); returns how many. */
async function requeueUnqueued(
  dataSource: DataSource,
  queue: JobQueue,
  options: { priority?: number; freshSeconds: number },
  waiting: { id: string; provider: string }[],
): Promise<number> {
  if (waiting.length === 0) return 0;
  // A job fetched moments ago whose item is not claimed yet is not lost: counting only waiting jobs queued such
  // items a second time in a healthy system (18 duplicate jobs in a 2,400-call grid). A fetch is claimed at
  // once; one not claimed within a lease belonged to a worker that died or lost its database.
  const queued = await queue.waitingCompletionIds(
    "completion",
    waiting.map((row) => row.id),
    options.freshSeconds,
  );
  const unqueued = waiting.filter((row) => !queued.has(row.id));
  if (unqueued.length === 0) return 0;
  // Still waiting now? (An item claimed and stored since it was read needs no job.)
  const still = new Set<string>(
    (
      await dataSource.query(
        "SELECT id::text AS id FROM completion WHERE id = ANY($1::bigint[]) AND status = 'PENDING'",
        [unqueued.map((row) => row.id)],
      )
    ).map((row: { id: string }) => row.id),
  );
  const orphans = unqueued.filter((row) => still.has(row.id));
  if (orphans.length === 0) return 0;
  await queue.enqueue(
    "completion",
    orphans.map((row) => ({ completionId: row.id, provider: row.provider })),
    options.priority ? { priority: options.priority } : {},
  );
  queue.wake();
  return orphans.length;
}
