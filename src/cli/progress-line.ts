/** What `memicl experiment --wait` shows of an experiment's runs at one moment (pure). */
export interface ProgressSnapshot {
  /** Completions the runs will make: a cancelled run counts what it made, not what it skipped. */
  total: number;
  /** Completions finished (succeeded or failed). */
  finished: number;
  failed: number;
  costUsd: number;
  runsFinished: number;
  runs: number;
}

interface RunCounts {
  status: string;
  expectedCount: number;
  doneCount: number;
  failedCount: number;
  costUsd: number | string;
}

/** Statuses of a run that is over (a run a budget paused is not: raising the budget resumes it). */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

export function snapshotOf(runs: readonly RunCounts[]): ProgressSnapshot {
  let total = 0;
  let finished = 0;
  let failed = 0;
  let costUsd = 0;
  let runsFinished = 0;
  for (const run of runs) {
    const made = run.doneCount + run.failedCount;
    // A cancelled run's skipped items leave the denominator: they will not be made.
    total += run.status === "CANCELLED" ? made : run.expectedCount;
    finished += made;
    failed += run.failedCount;
    costUsd += Number(run.costUsd);
    if (ENDED_STATUSES.has(run.status)) runsFinished += 1;
  }
  return { total, finished, failed, costUsd, runsFinished, runs: runs.length };
}

/** Completions per second between two snapshots, and the time left at that pace (null while nothing moved). */
export function pace(
  first: { finished: number; at: number },
  now: { finished: number; at: number },
  total: number,
): { perSecond: number; etaSeconds: number | null } {
  const seconds = (now.at - first.at) / 1000;
  const perSecond = seconds > 0 ? (now.finished - first.finished) / seconds : 0;
  return {
    perSecond,
    etaSeconds: perSecond > 0 ? Math.max(0, (total - now.finished) / perSecond) : null,
  };
}

/** 95 s -> "1m35s", 7300 s -> "2h01m"; null -> "?". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "?";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** Dollars with 2 decimals, as the dashboard shows them; a cost below a cent is "<$0.01", not "$0.00". */
export function formatCost(usd: number): string {
  return usd > 0 && usd < 0.01 ? "<$0.01" : `$${usd.toFixed(2)}`;
}

/** One line for a log (stderr that is not a terminal). */
export function progressLine(
  snapshot: ProgressSnapshot,
  speed: { perSecond: number; etaSeconds: number | null },
): string {
  const share = snapshot.total > 0 ? (100 * snapshot.finished) / snapshot.total : 100;
  return (
    `progress: ${snapshot.finished}/${snapshot.total} completions (${share.toFixed(1)}%), ` +
    `${snapshot.failed} failed, ${speed.perSecond.toFixed(1)}/s, ETA ${formatDuration(speed.etaSeconds)}, ` +
    `${formatCost(snapshot.costUsd)}, ${snapshot.runsFinished}/${snapshot.runs} runs finished`
  );
}

/**
 * What a waiting reason says without its times and counts (a limit's next slot, items answered so far): two
 * reasons of one shape are one wait, said once.
 */
export function waitingShape(reason: string): string {
  return reason
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z?/g, "<time>")
    .replace(/\d+(?:[.,]\d+)*/g, "#");
}
