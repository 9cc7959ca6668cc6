import { ConflictError, NotFoundError } from "../common/errors";
import { Config } from "../config/config";
import { Run } from "../run/run.entity";
import { openForCommand } from "./open-database";

export type RunAction = "cancel" | "resume" | "retry-failed";

/**
 * `memicl cancel|resume|retry-failed ID`: the same as the dashboard's buttons and the run mutations, for one run
 * or every run of an experiment (the id says which). A run the action does not apply to (cancelling one that
 * succeeded) is listed as skipped, with why.
 */
export async function runRunAction(config: Config, action: RunAction, id: string): Promise<void> {
  const command = await openForCommand(config);
  const { runs, runLifecycle, experiments } = command.services;
  try {
    let targets: Run[];
    let what: string;
    try {
      targets = [await runs.get(id)];
      what = `run ${id}`;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      await experiments.get(id).catch((notFound) => {
        throw notFound instanceof NotFoundError
          ? new NotFoundError("Run or experiment", id)
          : (notFound as Error);
      });
      targets = (await runs.runsByExperiments([id]))[0];
      what = `experiment ${id} (${targets.length} runs)`;
    }
    let affected = 0;
    const out = process.stdout;
    for (const run of targets) {
      try {
        const result =
          action === "cancel"
            ? await runLifecycle.cancel(run.id)
            : action === "resume"
              ? await runLifecycle.resume(run.id)
              : await runLifecycle.retryFailed(run.id);
        affected += result.affectedCount;
        if (targets.length > 1 || result.affectedCount > 0)
          out.write(`  run ${run.id} ${result.run.status}: ${result.affectedCount} item(s)\n`);
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        out.write(`  run ${run.id} ${run.status}: skipped (${error.message})\n`);
      }
    }
    const verb =
      action === "cancel"
        ? "cancelled; items no longer called"
        : action === "resume"
          ? "resumed; items queued again"
          : "failed items queued again";
    out.write(`${what}: ${verb}: ${affected}\n`);
  } finally {
    await command.close();
  }
}
