import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { Run, RunStatus } from "./run.entity";

@ObjectType({ description: "An experiment's runs, summed: where it stands." })
export class ExperimentProgress {
  @Field(() => String, {
    description:
      "RUNNING while a run is queued or running; else PAUSED_BUDGET when a budget paused a run, FAILED when a run " +
      "failed, CANCELLED when one was cancelled, SUCCEEDED when all succeeded; EMPTY without runs.",
  })
  status: string;

  @Field(() => Int)
  runs: number;

  @Field(() => Int)
  activeRuns: number;

  @Field(() => Int)
  failedRuns: number;

  @Field(() => Int, { description: "Completions the runs will make." })
  expected: number;

  @Field(() => Int)
  done: number;

  @Field(() => Int)
  failed: number;

  @Field(() => Int)
  cacheHits: number;

  @Field(() => Float, { description: "Cost so far, in US dollars (where prices are configured)." })
  costUsd: number;

  @Field(() => Float, {
    nullable: true,
    description: "The experiment's budget, in US dollars; null without one.",
  })
  maxCostUsd: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "What is left of the experiment's budget (budget - cost so far, at least 0); null without one.",
  })
  budgetRemainingUsd: number | null;

  @Field(() => Int, { description: "Runs a budget (the experiment's or their own) paused." })
  pausedRuns: number;

  @Field(() => String, {
    nullable: true,
    description: "The most recent error of a run that is not finished or did not succeed, if any.",
  })
  lastError: string | null;

  @Field(() => String, {
    nullable: true,
    description: "What the unfinished runs wait for (a provider's rate limit, no live worker), if anything.",
  })
  waitingReason: string | null;
}

/** Sums an experiment's runs (pure). */
export function experimentProgress(
  runs: readonly Run[],
  maxCostUsd: string | number | null = null,
): ExperimentProgress {
  const active = runs.filter((run) => run.status === RunStatus.QUEUED || run.status === RunStatus.RUNNING);
  const failedRuns = runs.filter((run) => run.status === RunStatus.FAILED);
  const paused = runs.filter((run) => run.status === RunStatus.PAUSED_BUDGET);
  const costUsd = runs.reduce((total, run) => total + Number(run.costUsd), 0);
  const limit = maxCostUsd === null ? null : Number(maxCostUsd);
  const status =
    runs.length === 0
      ? "EMPTY"
      : active.length > 0
        ? "RUNNING"
        : paused.length > 0
          ? "PAUSED_BUDGET"
          : failedRuns.length > 0
            ? "FAILED"
            : runs.some((run) => run.status === RunStatus.CANCELLED)
              ? "CANCELLED"
              : "SUCCEEDED";
  const withError = runs
    .filter((run) => run.lastError && run.status !== RunStatus.SUCCEEDED)
    .sort((a, b) => {
      const at = (run: Run) => (run.finishedAt ?? run.startedAt ?? run.createdAt).getTime();
      return at(b) - at(a);
    });
  return {
    status,
    runs: runs.length,
    activeRuns: active.length,
    failedRuns: failedRuns.length,
    expected: runs.reduce((total, run) => total + run.expectedCount, 0),
    done: runs.reduce((total, run) => total + run.doneCount, 0),
    failed: runs.reduce((total, run) => total + run.failedCount, 0),
    cacheHits: runs.reduce((total, run) => total + run.cacheHitCount, 0),
    costUsd,
    maxCostUsd: limit,
    budgetRemainingUsd: limit === null ? null : Math.max(0, limit - costUsd),
    pausedRuns: paused.length,
    lastError: withError[0]?.lastError ?? null,
    waitingReason: [...active, ...paused].map((run) => run.waitingReason).find((reason) => reason) ?? null,
  };
}

@ObjectType({ description: "A live update of an experiment: its runs and their sum." })
export class ExperimentProgressEvent {
  @Field(() => ID)
  experimentId: string;

  @Field(() => ExperimentProgress)
  progress: ExperimentProgress;

  @Field(() => [Run], { description: "Every run, in the grid's order (kind, setting, k), as it stands." })
  runs: Run[];
}
