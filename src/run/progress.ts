import { setTimeout as sleep } from "node:timers/promises";
import { Run, RunStatus } from "./run.entity";

/** How often a live subscription looks at the database: at most twice a second, whatever the run's pace. */
export const PROGRESS_INTERVAL_MS = 500;

const TERMINAL = new Set<string>([RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.CANCELLED]);

/** What a subscriber sees change: counts, status, cost, the last error. */
export function progressFingerprint(run: Run): string {
  return JSON.stringify([
    run.status,
    run.doneCount,
    run.failedCount,
    run.cacheHitCount,
    String(run.promptTokens),
    String(run.completionTokens),
    String(run.costUsd),
    run.lastError,
    run.waitingReason,
  ]);
}

/**
 * Live progress as an async stream, read from the database (so a worker in any process shows): the current state
 * first, then every change, at most every `intervalMs`; it ends after the state where every run is finished.
 * `read` returns the runs watched (one run, or an experiment's runs).
 */
export async function* watchRuns<T>(
  read: () => Promise<Run[]>,
  toEvent: (runs: Run[]) => T,
  intervalMs = PROGRESS_INTERVAL_MS,
): AsyncGenerator<T> {
  let last: string | null = null;
  for (;;) {
    const runs = await read();
    const fingerprint = JSON.stringify(runs.map(progressFingerprint));
    if (fingerprint !== last) {
      last = fingerprint;
      yield toEvent(runs);
    }
    if (runs.length > 0 && runs.every((run) => TERMINAL.has(run.status))) return;
    await sleep(intervalMs);
  }
}
