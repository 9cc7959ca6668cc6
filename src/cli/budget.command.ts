import { BadInputError, NotFoundError } from "../common/errors";
import { Config } from "../config/config";
import { openForCommand } from "./open-database";
import { formatCost } from "./progress-line";

/**
 * `memicl budget ID --max-cost USD | --remove`: the setBudget mutation for an experiment (the id of one) or a
 * run; prints the budget as it stands and the runs it resumed.
 */
export async function runBudget(
  config: Config,
  id: string,
  options: { maxCost?: number; remove: boolean },
): Promise<void> {
  if ((options.maxCost === undefined) === !options.remove)
    throw new BadInputError("give --max-cost <usd> or --remove (one of them)");
  const command = await openForCommand(config);
  const { budgets, experiments } = command.services;
  try {
    const isExperiment = await experiments.get(id).then(
      () => true,
      (error) => {
        if (error instanceof NotFoundError) return false;
        throw error;
      },
    );
    const result = await budgets.setBudget({
      ...(isExperiment ? { experimentId: id } : { runId: id }),
      maxCostUsd: options.remove ? null : options.maxCost,
    });
    const what = isExperiment ? `experiment ${id}` : `run ${id}`;
    const out = process.stdout;
    if (!result.budget) out.write(`${what}: no budget\n`);
    else
      out.write(
        `${what}: budget ${formatCost(result.budget.maxCostUsd)}, spent ${formatCost(result.budget.spentUsd)}, ` +
          `in flight up to ${formatCost(result.budget.inFlightUsd)} (${result.budget.inFlightCalls} calls), ` +
          `remaining ${formatCost(result.budget.remainingUsd)}\n`,
      );
    out.write(`resumed ${result.resumedRuns} run(s) the budget had paused\n`);
  } finally {
    await command.close();
  }
}
