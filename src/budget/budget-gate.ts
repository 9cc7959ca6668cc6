import { DataSource, EntityManager } from "typeorm";
import { BudgetDecision, BudgetUse, decideCall, KEPT_CALLS_COUNTED } from "./budget";

/** The claim a call is made for (the columns of a claimed completion the gate needs). */
export interface HeldClaim {
  id: string;
  run_id: string;
  lease_token: string;
}

export type HoldOutcome = BudgetDecision | { kind: "lost" };

/**
 * Takes an advisory lock per budget (the experiment's, else the run's) for the transaction: holds of one budget
 * are decided one at a time, across every process on the database, so two calls never both take its last dollars.
 * A transaction-mode pooler keeps a transaction on one server connection, so the lock holds there too.
 */
const lockBudget = `
  SELECT r.experiment_id, pg_advisory_xact_lock(${budgetLockKey("coalesce(r.experiment_id, r.id)")}) AS locked
  FROM run r WHERE r.id = $1`;

/** The advisory lock key of a budget, from a SQL expression giving the experiment's id or the lone run's. */
export function budgetLockKey(idExpression: string): string {
  return `hashtext('memicl:budget:' || (${idExpression})::text)`;
}

/** A completion `c` whose claim holds its call's worst case now (the hold ends with the claim). */
export const LIVE_HOLD = "c.status = 'RUNNING' AND c.reserved_token = c.lease_token";

/**
 * What each budget has spent and what the calls in flight hold. A hold counts while its token is the claim's
 * lease token: storing, failing, releasing or losing the claim ends it, in the statement that does so (storing
 * also adds the real cost to the run, so a committed call is counted once, as spent). `$3` (a completion) is left
 * out: its own hold is the one being decided. Read after the lock, so a budget raised meanwhile is seen.
 */
const budgetUse = `
  SELECT r.status::text AS run_status, r.max_cost_usd AS run_limit, r.cost_usd AS run_spent,
         e.max_cost_usd AS experiment_limit,
         (SELECT coalesce(sum(cost_usd), 0) FROM run WHERE experiment_id = $2) AS experiment_spent,
         run_hold.usd AS run_held, run_hold.calls AS run_calls,
         experiment_hold.usd AS experiment_held, experiment_hold.calls AS experiment_calls,
         run_kept.calls AS run_kept, experiment_kept.calls AS experiment_kept
  FROM run r
  LEFT JOIN experiment e ON e.id = $2
  -- Calls stored within their max_tokens, counted up to KEPT_CALLS_COUNTED (budget.ts: the slow start); a call
  -- that reported no usage was charged at its worst case, so it kept to what it held.
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS calls FROM (
      SELECT 1 FROM completion c
      WHERE c.run_id = r.id AND c.status = 'SUCCEEDED'
        AND (c.completion_tokens IS NULL OR c.completion_tokens <= r.max_output_tokens)
      LIMIT ${KEPT_CALLS_COUNTED}
    ) kept
  ) AS run_kept
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS calls FROM (
      SELECT 1 FROM run r2 JOIN completion c ON c.run_id = r2.id
      WHERE r2.experiment_id = $2 AND c.status = 'SUCCEEDED'
        AND (c.completion_tokens IS NULL OR c.completion_tokens <= r2.max_output_tokens)
      LIMIT ${KEPT_CALLS_COUNTED}
    ) kept
  ) AS experiment_kept
  CROSS JOIN LATERAL (
    SELECT coalesce(sum(c.reserved_usd), 0) AS usd, count(*)::int AS calls FROM completion c
    WHERE c.run_id = r.id AND ${LIVE_HOLD} AND c.id <> $3
  ) AS run_hold
  CROSS JOIN LATERAL (
    SELECT coalesce(sum(c.reserved_usd), 0) AS usd, count(*)::int AS calls
    FROM run r2 JOIN completion c ON c.run_id = r2.id
    WHERE r2.experiment_id = $2 AND ${LIVE_HOLD} AND c.id <> $3
  ) AS experiment_hold
  WHERE r.id = $1`;

const holdCall = `
  UPDATE completion SET reserved_usd = $3, reserved_token = lease_token
  WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING'
  RETURNING id`;

/** Pauses the budget's active runs (the experiment's, or the one run), saying why. */
const pauseRuns = `
  WITH locked AS (
    -- In id order, as every statement that moves several runs locks them.
    SELECT id FROM run
    WHERE status IN ('QUEUED', 'RUNNING') AND (id = $1 OR ($2::uuid IS NOT NULL AND experiment_id = $2))
    ORDER BY id FOR UPDATE
  )
  UPDATE run SET status = 'PAUSED_BUDGET', waiting_reason = $3
  WHERE run.id IN (SELECT id FROM locked) AND status IN ('QUEUED', 'RUNNING')`;

const releaseClaim = `
  UPDATE completion SET status = 'PENDING', lease_token = NULL, lease_until = NULL, lease_owner = NULL
  WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING'`;

/**
 * Budgets at call time, on the database: before a budgeted call, its worst case is held on its claim if it fits
 * the run's budget and its experiment's with what was spent and what the calls in flight hold. When it could not
 * fit even with nothing in flight, the budget's runs pause (`PAUSED_BUDGET`, with the reason) and the item is
 * given back; when only the calls in flight make it not fit, the item is given back to wait for them.
 */
export class BudgetGate {
  constructor(private readonly dataSource: DataSource) {}

  async hold(claim: HeldClaim, callUsd: number): Promise<HoldOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const [scope]: { experiment_id: string | null }[] = await manager.query(lockBudget, [claim.run_id]);
      if (!scope) return { kind: "lost" as const };
      const { budgets, active } = await this.use(manager, claim, scope.experiment_id);
      // A run its budget paused (or that was cancelled) starts nothing more, even a call that would fit.
      const decision: BudgetDecision = active
        ? decideCall(budgets, callUsd)
        : { kind: "pause", scope: "run", reason: "the run is not active" };
      if (decision.kind === "fits") {
        const held = await manager.query(holdCall, [claim.id, claim.lease_token, callUsd]);
        return held[1] === 0 || held[0]?.length === 0 ? { kind: "lost" as const } : decision;
      }
      if (decision.kind === "pause" && active)
        await manager.query(pauseRuns, [
          claim.run_id,
          decision.scope === "experiment" ? scope.experiment_id : null,
          decision.reason,
        ]);
      await manager.query(releaseClaim, [claim.id, claim.lease_token]);
      return decision;
    });
  }

  /**
   * Holds the worst cases of several claims of one run at once (a provider batch's items), in order, as many as
   * fit: returns how many were held (the first ones) and, when not all were, the decision for the first that was
   * not (its runs paused when even with nothing in flight it could not fit). The caller gives the rest back.
   */
  async holdMany(
    claims: readonly HeldClaim[],
    costs: readonly number[],
  ): Promise<{ held: number; decision: BudgetDecision }> {
    if (claims.length === 0) return { held: 0, decision: { kind: "fits" } };
    const runId = claims[0].run_id;
    return this.dataSource.transaction(async (manager) => {
      const [scope]: { experiment_id: string | null }[] = await manager.query(lockBudget, [runId]);
      const { budgets, active } = await this.use(manager, claims[0], scope?.experiment_id ?? null);
      if (!active)
        return {
          held: 0,
          decision: { kind: "pause" as const, scope: "run" as const, reason: "the run is not active" },
        };
      // The claims are not held yet; the first's own hold is left out by `use`, the others by not being held.
      let held = 0;
      let decision: BudgetDecision = { kind: "fits" };
      for (const cost of costs) {
        decision = decideCall(budgets, cost);
        if (decision.kind !== "fits") break;
        for (const budget of budgets) {
          budget.inFlightUsd += cost;
          budget.inFlightCalls += 1;
        }
        held += 1;
      }
      if (held > 0)
        await manager.query(
          `UPDATE completion c SET reserved_usd = x.cost, reserved_token = c.lease_token
           FROM unnest($1::bigint[], $2::uuid[], $3::numeric[]) AS x(id, token, cost)
           WHERE c.id = x.id AND c.lease_token = x.token AND c.status = 'RUNNING'`,
          [
            claims.slice(0, held).map((claim) => claim.id),
            claims.slice(0, held).map((claim) => claim.lease_token),
            costs.slice(0, held),
          ],
        );
      if (held === 0 && decision.kind === "pause")
        await manager.query(pauseRuns, [
          runId,
          decision.scope === "experiment" ? (scope?.experiment_id ?? null) : null,
          decision.reason,
        ]);
      return { held, decision: held === claims.length ? { kind: "fits" as const } : decision };
    });
  }

  /**
   * Pauses a run's budget at once after a call overran what its worst case allowed (a provider that ignores
   * max_tokens): the run and, under an experiment's budget, its experiment's other active runs.
   */
  async pauseOverrun(runId: string, reason: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const [scope]: { experiment_id: string | null }[] = await manager.query(lockBudget, [runId]);
      if (!scope) return;
      const [{ budgeted }]: { budgeted: boolean }[] = await manager.query(
        `SELECT (SELECT max_cost_usd FROM experiment WHERE id = $2) IS NOT NULL AS budgeted`,
        [runId, scope.experiment_id],
      );
      await manager.query(pauseRuns, [runId, budgeted ? scope.experiment_id : null, reason]);
    });
  }

  /** Pauses one run, saying why, and gives its claimed item back (the call cannot be bounded here). */
  async pauseRun(claim: HeldClaim, reason: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(pauseRuns, [claim.run_id, null, reason]);
      await manager.query(releaseClaim, [claim.id, claim.lease_token]);
    });
  }

  private async use(
    manager: EntityManager,
    claim: HeldClaim,
    experimentId: string | null,
  ): Promise<{ budgets: BudgetUse[]; active: boolean }> {
    const [row]: {
      run_status: string | null;
      run_limit: string | null;
      experiment_limit: string | null;
      run_spent: string;
      run_held: string;
      run_calls: number;
      experiment_spent: string;
      experiment_held: string;
      experiment_calls: number;
      run_kept: number;
      experiment_kept: number;
    }[] = await manager.query(budgetUse, [claim.run_id, experimentId, claim.id]);
    // The run is gone (deleted meanwhile): nothing may start for it.
    if (!row) return { budgets: [], active: false };
    const budgets: BudgetUse[] = [];
    if (row.experiment_limit !== null)
      budgets.push({
        scope: "experiment",
        limitUsd: Number(row.experiment_limit),
        spentUsd: Number(row.experiment_spent),
        inFlightUsd: Number(row.experiment_held),
        inFlightCalls: row.experiment_calls,
        keptCalls: row.experiment_kept,
      });
    if (row.run_limit !== null)
      budgets.push({
        scope: "run",
        limitUsd: Number(row.run_limit),
        spentUsd: Number(row.run_spent),
        inFlightUsd: Number(row.run_held),
        inFlightCalls: row.run_calls,
        keptCalls: row.run_kept,
      });
    return { budgets, active: row.run_status === "QUEUED" || row.run_status === "RUNNING" };
  }
}
