import { DataSource } from "typeorm";
import { BadInputError, NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import { Experiment } from "../experiment/experiment.entity";
import { ExperimentService } from "../experiment/experiment.service";
import { Run } from "../run/run.entity";
import { RunService } from "../run/run.service";
import { checkPriced, RunLifecycle } from "../run/run-lifecycle";
import { BudgetView, SetBudgetInput } from "./budget.types";
import { budgetLockKey, LIVE_HOLD } from "./budget-gate";

/**
 * Calls of the runs `r` (narrowed by the caller's WHERE) that a provider's usage made the budget charge other than
 * as reported: output beyond max_tokens (charged as reported), and usage missing or implausible (charged at worst).
 */
const CHARGED = `
  SELECT count(*) FILTER (WHERE c.completion_tokens > r.max_output_tokens)::int AS overruns,
         count(*) FILTER (WHERE c.prompt_tokens IS NULL OR c.completion_tokens IS NULL)::int AS worst_cases
  FROM run r JOIN completion c ON c.run_id = r.id AND c.status = 'SUCCEEDED' AND NOT c.cache_hit
                                  AND c.cost_usd IS NOT NULL`;

/** A budget's scope: an experiment (all its runs), or one run. */
export type BudgetScope = { experimentId: string } | { runId: string };

/** Budgets as records: set, raised, removed (which resumes the runs they paused), and read as they stand. */
export class BudgetService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runs: RunService,
    private readonly experiments: ExperimentService,
    private readonly lifecycle: RunLifecycle,
  ) {}

  /**
   * A budget bounds calls by their prices. They are this process's when it has the provider configured; else those
   * the runs recorded when they started (each run keeps its price), so that a budget can be set from a shell that
   * has no providers file. Refused when neither has a price for every run.
   */
  private async checkBudgetable(
    owner: { provider: string; model: string },
    experimentId: string | null,
    runId: string | null,
  ): Promise<void> {
    try {
      checkPriced(await this.lifecycle.checkProvider(owner.provider), owner.provider, owner.model);
      return;
    } catch (error) {
      if (!(error instanceof BadInputError)) throw error;
      const [recorded]: { runs: number; unpriced: number }[] = await this.dataSource.query(
        `SELECT count(*)::int AS runs,
                count(*) FILTER (WHERE jsonb_typeof(parameters -> 'price') IS DISTINCT FROM 'object')::int AS unpriced
         FROM run WHERE id = $1 OR experiment_id = $2`,
        [runId, experimentId],
      );
      if (recorded.runs > 0 && recorded.unpriced === 0) return;
      throw new BadInputError(
        `${error.message}; nor did its runs record prices when they started ` +
          `(${recorded.unpriced} of ${recorded.runs} without)`,
        { field: "maxCostUsd" },
      );
    }
  }

  async setBudget(input: SetBudgetInput): Promise<{
    experiment: Experiment | null;
    run: Run | null;
    budget: BudgetView | null;
    resumedRuns: number;
  }> {
    if ((input.experimentId == null) === (input.runId == null))
      throw new BadInputError("setBudget: give experimentId or runId (one of them)", {
        field: "experimentId",
      });
    const limit = input.maxCostUsd ?? null;
    const experiment = input.experimentId ? await this.experiments.get(input.experimentId) : null;
    const run = input.runId ? await this.runs.get(input.runId) : null;
    const owner = experiment ?? run!;
    if (limit !== null) await this.checkBudgetable(owner, experiment?.id ?? null, run?.id ?? null);
    const resumed: string[] = await this.dataSource.transaction(async (manager) => {
      // The gate decides a budget's calls under this lock: a call deciding now sees the new limit, and a pause
      // it decides with the old one cannot land after this resumes.
      await manager.query(`SELECT pg_advisory_xact_lock(${budgetLockKey("$1")})`, [
        experiment ? experiment.id : (run!.experimentId ?? run!.id),
      ]);
      if (experiment)
        await manager.query("UPDATE experiment SET max_cost_usd = $2 WHERE id = $1", [experiment.id, limit]);
      else await manager.query("UPDATE run SET max_cost_usd = $2 WHERE id = $1", [run!.id, limit]);
      // An UPDATE's rows come with its count: [rows, count].
      const [rows]: [{ id: string }[], number] = await manager.query(
        // The runs locked in id order first, as every statement that moves several runs locks them.
        `WITH locked AS (
           SELECT id FROM run WHERE status = 'PAUSED_BUDGET' AND (id = $1 OR experiment_id = $2) ORDER BY id FOR UPDATE
         )
         UPDATE run SET status = 'QUEUED', waiting_reason = NULL
         WHERE run.id IN (SELECT id FROM locked) AND status = 'PAUSED_BUDGET'
         RETURNING run.id`,
        [run?.id ?? null, experiment?.id ?? null],
      );
      return rows.map((row) => row.id);
    });
    // Their waiting items get jobs (should this process stop here, the reconciler queues them: the runs are active).
    for (const runId of resumed) await this.lifecycle.resume(runId);
    const scope: BudgetScope = experiment ? { experimentId: experiment.id } : { runId: run!.id };
    return {
      experiment: experiment ? await this.experiments.get(experiment.id) : null,
      run: run ? await this.runs.get(run.id) : null,
      budget: await this.budgetOf(scope),
      resumedRuns: resumed.length,
    };
  }

  /** The budget of an experiment or a run as it stands; null when it has none. */
  async budgetOf(scope: BudgetScope): Promise<BudgetView | null> {
    const id = "experimentId" in scope ? scope.experimentId : scope.runId;
    if (!isUuid(id)) throw new NotFoundError("experimentId" in scope ? "Experiment" : "Run", id);
    const [row]: {
      limit: string | null;
      spent: string;
      held: string;
      calls: number;
      paused: number;
      overruns: number;
      worst_cases: number;
    }[] = await this.dataSource.query(
      "experimentId" in scope
        ? `SELECT e.max_cost_usd AS limit, hold.usd AS held, hold.calls,
                  (SELECT coalesce(sum(cost_usd), 0) FROM run WHERE experiment_id = e.id) AS spent,
                  (SELECT count(*) FROM run WHERE experiment_id = e.id AND status = 'PAUSED_BUDGET')::int AS paused,
                  charged.overruns, charged.worst_cases
           FROM experiment e
           CROSS JOIN LATERAL (${CHARGED} WHERE r.experiment_id = e.id) AS charged
           CROSS JOIN LATERAL (
             SELECT coalesce(sum(c.reserved_usd), 0) AS usd, count(*)::int AS calls
             FROM run r JOIN completion c ON c.run_id = r.id WHERE r.experiment_id = e.id AND ${LIVE_HOLD}
           ) AS hold
           WHERE e.id = $1`
        : `SELECT r.max_cost_usd AS limit, r.cost_usd AS spent, hold.usd AS held, hold.calls,
                  (CASE WHEN r.status = 'PAUSED_BUDGET' THEN 1 ELSE 0 END) AS paused,
                  charged.overruns, charged.worst_cases
           FROM run r
           CROSS JOIN LATERAL (${CHARGED} WHERE r.id = $1) AS charged
           CROSS JOIN LATERAL (
             SELECT coalesce(sum(c.reserved_usd), 0) AS usd, count(*)::int AS calls
             FROM completion c WHERE c.run_id = r.id AND ${LIVE_HOLD}
           ) AS hold
           WHERE r.id = $1`,
      [id],
    );
    if (!row) throw new NotFoundError("experimentId" in scope ? "Experiment" : "Run", id);
    if (row.limit === null) return null;
    const limit = Number(row.limit);
    const spent = Number(row.spent);
    const held = Number(row.held);
    return {
      scope: "experimentId" in scope ? "EXPERIMENT" : "RUN",
      maxCostUsd: limit,
      spentUsd: spent,
      inFlightUsd: held,
      inFlightCalls: row.calls,
      remainingUsd: Math.max(0, limit - spent - held),
      pausedRuns: Number(row.paused),
      overrunCalls: row.overruns,
      worstCaseCharges: row.worst_cases,
    };
  }
}
