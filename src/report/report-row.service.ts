import { DataSource } from "typeorm";
import { decodeCursor, encodeCursor } from "../common/cursor";
import { BadInputError, NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import { MaintenanceLease } from "../common/maintenance-lease";
import { checkPageSize, Page, toPage } from "../graphql/connection";
import { Logger } from "../logging/logger";
import { ReportService } from "./report.service";
import { resultsState } from "./report.sql";
import { ReportRow } from "./report-row.entity";
import { ReportRowFilter, ReportRowsAcrossFilter } from "./report-row.types";
import { FORMER_ROW_NAMES, ROW_NAMES, reportRowsOf } from "./report-rows";

const KNOWN_NAMES = new Set<string>(ROW_NAMES);

/**
 * The names a filter asks for, a former name (deprecated) read as the name it became; refuses names that are not
 * report rows, naming them.
 */
function checkNames(names: readonly string[] | undefined): string[] | null {
  if (!names) return null;
  const current = names.map((name) => FORMER_ROW_NAMES.get(name) ?? name);
  const unknown = current.filter((name) => !KNOWN_NAMES.has(name));
  if (unknown.length > 0)
    throw new BadInputError(
      `unknown report row name ${unknown.map((name) => `"${name}"`).join(", ")}; the names are listed in docs/REPORT-ROWS.md`,
      { field: "names" },
    );
  return current;
}

/** A stored `metric` row as the API serves it. */
function metricOf(row: Record<string, unknown>, experimentId: string): ReportRow {
  return {
    id: String(row.id),
    experimentId,
    name: row.name as string,
    scope: row.scope as ReportRow["scope"],
    value: row.value as number | null,
    numerator: row.numerator as number | null,
    denominator: row.denominator as number | null,
    ciLow: row.ci_low as number | null,
    ciHigh: row.ci_high as number | null,
    computedAt: row.computed_at as Date,
  };
}

/** An experiment's results as the report rows see them. */
interface ResultsState {
  id: string;
  /** Of every run's lastUpdatedAt, now. */
  fingerprint: string;
  /** The stored rows were computed from another fingerprint (or there are none). */
  stale: boolean;
  /** A run of the experiment is queued or running. */
  active: boolean;
  /** When the state the stored rows reflect was read. */
  computedAt: Date | null;
  /** When this was read (the database's clock). */
  readAt: Date;
}

/**
 * What the rows are made of: bump it when `reportRowsOf` writes other rows or scopes, so rows written by an
 * earlier version are stale and rewritten on the next read.
 */
export const METRIC_ROWS_VERSION = "rows-3";

/** The results' state (report.sql.ts), the fingerprint with the rows' version: rows of another version are stale. */
const FINGERPRINT = `
  SELECT md5('${METRIC_ROWS_VERSION}:' || st.fingerprint) AS fingerprint, st.active
  FROM (${resultsState("e.id")}) AS st`;

/**
 * The study report of each experiment, kept as flat `metric` rows: rewritten whenever the experiment's results
 * change (a background refresher notices, and a read never returns rows older than the results).
 */
export class ReportRowService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly results: ReportService,
  ) {}

  /** The report rows of an experiment, brought up to date first when its results changed since they were written. */
  async list(filter: ReportRowFilter, first: number, after: string | null): Promise<Page<ReportRow>> {
    checkPageSize(first);
    const names = checkNames(filter.names);
    await this.ensureFresh(filter.experimentId);
    const afterId = after ? String(decodeCursor("Metric", after)[0]) : "0";
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT id, name, scope, value, numerator, denominator, ci_low, ci_high, computed_at
       FROM metric
       WHERE experiment_id = $1 AND id > $2
         AND ($3::text[] IS NULL OR name = ANY($3))
         AND ($4::text[] IS NULL OR scope->>'dataset' = ANY($4))
         AND ($5::text[] IS NULL OR scope->>'setting' = ANY($5))
         AND ($6::int[] IS NULL OR (scope->>'shots')::int = ANY($6))
         AND ($7::text[] IS NULL OR scope->>'measure' = ANY($7))
         AND ($8::text[] IS NULL OR scope->>'sampleId' = ANY($8))
         AND ($9::boolean IS NULL OR (scope->>'sampleId' IS NULL) = $9)
       ORDER BY id LIMIT $10`,
      [
        filter.experimentId,
        afterId,
        names,
        filter.datasets ?? null,
        filter.settings ?? null,
        filter.shots ?? null,
        filter.measures ?? null,
        filter.sampleIds ?? null,
        filter.pooled ?? null,
        first + 1,
      ],
    );
    const metrics = rows.map((row) => metricOf(row, filter.experimentId));
    return toPage(metrics, first, (metric) => encodeCursor("Metric", [metric.id])); // the cursor's tag predates the name;
  }

  /**
   * The report rows of several experiments at once, chosen by provider, model or id (at most 50 experiments), each
   * brought up to date first: "model A against model B" across the experiments that ran them.
   */
  async listAcross(
    filter: ReportRowsAcrossFilter,
    first: number,
    after: string | null,
  ): Promise<Page<ReportRow>> {
    checkPageSize(first);
    if (!filter.providers && !filter.models && !filter.experimentIds)
      throw new BadInputError("reportRowsAcross: name providers, models or experimentIds", {
        field: "filter",
      });
    const names = checkNames(filter.names);
    const experiments: { id: string }[] = await this.dataSource.query(
      `SELECT id::text FROM experiment
       WHERE ($1::text[] IS NULL OR provider = ANY($1)) AND ($2::text[] IS NULL OR model = ANY($2))
         AND ($3::text[] IS NULL OR id::text = ANY($3))
       ORDER BY created_at, id LIMIT 51`,
      [filter.providers ?? null, filter.models ?? null, filter.experimentIds ?? null],
    );
    if (experiments.length > 50)
      throw new BadInputError("reportRowsAcross: more than 50 experiments match; narrow the filter", {
        field: "filter",
      });
    for (const { id } of experiments) await this.ensureFresh(id);
    const afterId = after ? String(decodeCursor("Metric", after)[0]) : "0";
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT id, experiment_id::text, name, scope, value, numerator, denominator, ci_low, ci_high, computed_at
       FROM metric
       WHERE experiment_id::text = ANY($1) AND id > $2
         AND ($3::text[] IS NULL OR name = ANY($3))
         AND ($4::text[] IS NULL OR scope->>'dataset' = ANY($4))
         AND ($5::text[] IS NULL OR scope->>'setting' = ANY($5))
         AND ($6::int[] IS NULL OR (scope->>'shots')::int = ANY($6))
         AND ($7::text[] IS NULL OR scope->>'measure' = ANY($7))
       ORDER BY id LIMIT $8`,
      [
        experiments.map((row) => row.id),
        afterId,
        names,
        filter.datasets ?? null,
        filter.settings ?? null,
        filter.shots ?? null,
        filter.measures ?? null,
        first + 1,
      ],
    );
    const metrics = rows.map((row) => metricOf(row, row.experiment_id as string));
    return toPage(metrics, first, (metric) => encodeCursor("Metric", [metric.id])); // the cursor's tag predates the name;
  }

  /** Recomputes the experiment's report rows unless they were computed from its runs' current state. */
  async ensureFresh(experimentId: string): Promise<void> {
    const [state] = isUuid(experimentId) ? await this.states(experimentId) : [];
    if (!state) throw new NotFoundError("Experiment", experimentId);
    if (state.stale) await this.refresh(experimentId);
  }

  /**
   * Rewrites the experiment's rows from its study report, in one transaction, under a lock per experiment.
   * The results' state is read first, and the report computed outside any transaction (its reads take pooled
   * connections of their own, which a held transaction must not wait for); rows computed from a state read
   * later, by another process meanwhile, are never overwritten by older ones. Returns the number of rows
   * written, or null when nothing needed writing.
   */
  async refresh(experimentId: string): Promise<number | null> {
    const [state] = await this.states(experimentId);
    if (!state) throw new NotFoundError("Experiment", experimentId);
    if (!state.stale) return null;
    // The rows reflect at least the state read above, maybe a newer one (then the next check computes them again).
    const rows = reportRowsOf(await this.results.studyReport(experimentId, { fresh: true }));
    return this.dataSource.transaction(async (manager) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('memicl.metric'), hashtext($1))", [
        experimentId,
      ]);
      const [stored]: { computed_at: Date }[] = await manager.query(
        "SELECT computed_at FROM metric_state WHERE experiment_id = $1",
        [experimentId],
      );
      if (stored && stored.computed_at.getTime() >= state.readAt.getTime()) return null;
      // Rows keep their ids across rewrites (matched by name and scope): a client paging with a cursor while the
      // rows are rewritten sees each row once, not the whole list again under new ids.
      await manager.query(
        `WITH input AS (
           SELECT r->>'name' AS name, r->'scope' AS scope, (r->>'value')::float8 AS value,
                  (r->>'numerator')::int AS numerator, (r->>'denominator')::int AS denominator,
                  (r->>'ciLow')::float8 AS ci_low, (r->>'ciHigh')::float8 AS ci_high, i
           FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(r, i)
         ), updated AS (
           UPDATE metric AS m
           SET value = input.value, numerator = input.numerator, denominator = input.denominator,
               ci_low = input.ci_low, ci_high = input.ci_high, computed_at = $3
           FROM input
           WHERE m.experiment_id = $1 AND m.name = input.name AND m.scope = input.scope
           RETURNING input.i
         ), removed AS (
           DELETE FROM metric AS m
           WHERE m.experiment_id = $1
             AND NOT EXISTS (SELECT 1 FROM input WHERE input.name = m.name AND input.scope = m.scope)
         )
         INSERT INTO metric (experiment_id, name, scope, value, numerator, denominator, ci_low, ci_high, computed_at)
         SELECT $1, name, scope, value, numerator, denominator, ci_low, ci_high, $3
         FROM input WHERE i NOT IN (SELECT i FROM updated) ORDER BY i`,
        [experimentId, JSON.stringify(rows), state.readAt],
      );
      await manager.query(
        `INSERT INTO metric_state (experiment_id, fingerprint, computed_at, rows) VALUES ($1, $2, $3, $4)
         ON CONFLICT (experiment_id) DO UPDATE SET fingerprint = $2, computed_at = $3, rows = $4`,
        [experimentId, state.fingerprint, state.readAt, rows.length],
      );
      return rows.length;
    });
  }

  /**
   * `refresh`, unless another process is refreshing the experiment's rows already (a lease held for the refresh): twenty workers that all see the results change at the end of a run compute the report
   * once between them, not twenty times. Returns null when skipped or when nothing needed writing.
   */
  async refreshUnlessBusy(experimentId: string): Promise<number | null> {
    // A lease, not a lock of a transaction held open: the refresh takes pooled connections of its own, and a
    // held one waiting for them deadlocked with the reconciler at a pool of two.
    const lease = new MaintenanceLease(
      this.dataSource,
      `metric-refresh:${experimentId}`,
      REFRESH_LEASE_SECONDS,
    );
    return (await lease.run(() => this.refresh(experimentId))) ?? null;
  }

  /**
   * Experiments whose rows are older than their results (one when `experimentId` is given): with the current
   * fingerprint, whether a run is still going, when the rows were last computed, and when this was read.
   */
  async states(experimentId?: string): Promise<ResultsState[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT e.id, f.fingerprint, f.active, s.fingerprint IS DISTINCT FROM f.fingerprint AS stale,
              s.computed_at, clock_timestamp() AS read_at
       FROM experiment e
       CROSS JOIN LATERAL (${FINGERPRINT}) f
       LEFT JOIN metric_state s ON s.experiment_id = e.id
       WHERE ($1::uuid IS NULL OR e.id = $1)`,
      [experimentId ?? null],
    );
    return rows.map((row) => ({
      id: row.id as string,
      fingerprint: row.fingerprint as string,
      stale: row.stale as boolean,
      active: row.active as boolean,
      computedAt: (row.computed_at as Date | null) ?? null,
      readAt: row.read_at as Date,
    }));
  }
}

/** How long a report rows refresh's lease lasts: longer than a refresh of the largest experiment takes. */
const REFRESH_LEASE_SECONDS = 120;

/**
 * Keeps report rows current in the background: every `intervalMs`, experiments whose results changed are
 * recomputed; while one of an experiment's runs is still going, at most every `activeEveryMs` (a report of a
 * large experiment costs up to half a second).
 */
export function startReportRowRefresher(
  metrics: ReportRowService,
  logger: Logger,
  options: { intervalMs?: number; activeEveryMs?: number } = {},
): { stop(): Promise<void> } {
  const intervalMs = options.intervalMs ?? 2_000;
  const activeEveryMs = options.activeEveryMs ?? 30_000;
  let stopped = false;
  let pass: Promise<void> | null = null;
  const once = async () => {
    const states = await metrics.states();
    for (const state of states) {
      if (stopped) return;
      if (!state.stale) continue;
      if (state.active && state.computedAt && Date.now() - state.computedAt.getTime() < activeEveryMs)
        continue;
      await metrics.refreshUnlessBusy(state.id);
    }
  };
  const timer = setInterval(() => {
    if (pass) return; // the previous pass is still going
    pass = once()
      .catch((error) => logger.warn({ err: error }, "metric refresh failed; will retry"))
      .finally(() => {
        pass = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await pass;
    },
  };
}
