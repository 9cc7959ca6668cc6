import { ClaimedRow } from "../completion/completion-executor";
import { Config } from "../config/config";
import { Logger } from "../logging/logger";
import { reconcile } from "../run/reconciler";
import { beatIntervalMs } from "../worker/worker-registry";
import { Services } from "./services";

/**
 * On stop, calls in flight get this long to return (their answers are stored); then they are aborted and their
 * items released, untouched, for the next worker (the reconciler queues them again within a beat). A hanging
 * provider would otherwise hold a stop for its whole timeout (60 s by default) times its attempts.
 */
export const STOP_GRACE_MS = 5_000;

/** What a process's workers use: the queue and this process's registration, the providers, the two executors. */
export type WorkerServices = Pick<
  Services,
  "dataSource" | "queue" | "worker" | "providers" | "executor" | "judgmentExecutor" | "batches"
>;

export interface RunningWorkers {
  stop(): Promise<void>;
}

/**
 * Works on queued completions and judgments in this process: registers the worker, starts a slot pool per
 * job kind over the providers this process can call, and reconciles (at once, then every beat) so a dead
 * worker's items come back within a lease.
 */
export async function startWorkers(
  services: WorkerServices,
  config: Config,
  options: { role: string; concurrency: number; logger: Logger },
): Promise<RunningWorkers> {
  const { queue, worker, dataSource } = services;
  const usable = services.providers.usable();
  const providers = Object.fromEntries(
    usable.map((provider) => [provider.name, Math.min(provider.maxConcurrency, options.concurrency)]),
  );
  let timer: NodeJS.Timeout | null = null;
  let reconciling: Promise<unknown> = Promise.resolve();
  let batchTimer: NodeJS.Timeout | null = null;
  let batching: Promise<unknown> = Promise.resolve();
  const timing = { leaseSeconds: config.leaseSeconds };
  try {
    await queue.start();
    await worker.start({
      role: options.role,
      concurrency: options.concurrency,
      providers: usable.map((provider) => provider.name),
    });
    // The first pass runs beside the start, not before it: a process serving a large backlog answers at once.
    reconciling = reconcile(dataSource, queue, options.logger, timing).catch((error) =>
      options.logger.warn({ err: error }, "reconciling failed; trying again soon"),
    );
    timer = setInterval(() => {
      reconciling = reconcile(dataSource, queue, options.logger, timing).catch((error) =>
        options.logger.warn({ err: error }, "reconciling failed; trying again soon"),
      );
    }, beatIntervalMs(timing));
    timer.unref();
    // Batch runs: a pass over the provider batches (every second by default), when this process can call a batch
    // provider.
    if (services.batches.batchProviders().length > 0) {
      batchTimer = setInterval(() => {
        batching = services.batches
          .tick()
          .catch((error) => options.logger.warn({ err: error }, "a batch pass failed; trying again soon"));
      }, config.batchTickMs);
      batchTimer.unref();
    }
    await queue.work(
      "completion",
      {
        prepare: (jobs) => services.executor.claim(jobs.map((job) => job.completionId)),
        handle: (_job, claimed, slotFree) =>
          services.executor.executeClaim(claimed as ClaimedRow | null, slotFree),
        discard: (claims) => services.executor.release(claims as (ClaimedRow | null)[]),
      },
      { concurrency: options.concurrency, providers },
    );
    await queue.work(
      "judgment",
      { handle: (job) => services.judgmentExecutor.execute(job) },
      { concurrency: options.concurrency, providers },
    );
  } catch (error) {
    // A failed start leaves nothing running: a process whose queue could not start must not stay up half-alive.
    if (timer) clearInterval(timer);
    if (batchTimer) clearInterval(batchTimer);
    await reconciling.catch(() => {});
    await batching;
    await queue.stop().catch(() => {});
    await worker.stop().catch(() => {});
    throw error;
  }
  let stopped = false;
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      if (batchTimer) clearInterval(batchTimer);
      await reconciling;
      await batching;
      // Calls in flight get a grace period; calls waiting for a limit or a retry end now, given back.
      services.providers.stopWaiting();
      const abort = setTimeout(() => services.providers.abortCalls(), STOP_GRACE_MS);
      try {
        await queue.stop();
      } finally {
        clearTimeout(abort);
      }
      await worker.stop();
    },
  };
}
