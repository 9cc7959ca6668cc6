import type { MemorizationMeasure } from "../study/measures";
import type { Regime } from "../study/regime";
import type { MemorizationSetting } from "../study/settings";
import type { StudyReport } from "./study-report";
import { REPORT_TABLES } from "./tables";
import { EFFECTIVE_JUDGE, type Emit, tableName } from "./tables/table";

export { EFFECTIVE_JUDGE };

/**
 * The study report as flat rows: one number per row with its counts, interval and scope, named
 * `<table>.<statistic>` (the table's name is its report field in snake case: `zeroVsK` -> `zero_vs_k`). Each table
 * writes its own (tables/); this is the loop over them. The report's CSV is these rows. docs/REPORT-ROWS.md lists every
 * name.
 */
export interface FlatRowScope {
  experimentId: string;
  /** The experiment's provider and requested model: rows of several experiments stay apart. */
  provider: string | null;
  model: string | null;
  /** Null on a row pooled over the samples of a dataset. */
  sampleId: string | null;
  sampleName: string | null;
  sampleSeed: string | null;
  dataset: string | null;
  setting: MemorizationSetting | null;
  shots: number | null;
  regime: Regime | null;
  measure: MemorizationMeasure | null;
  /** Whose verdicts a memorization figure counts: "effective" (the latest human review, else the judge). */
  judge: string | null;
  /** The second cell of a paired comparison, or the larger k of a transition. */
  otherSetting: MemorizationSetting | null;
  otherShots: number | null;
  /** The control dataset of a control comparison. */
  otherDataset: string | null;
  /** A group of instances within the cell: `label=<label>` or `length=<bucket>`. */
  group: string | null;
}

export interface FlatRow {
  name: string;
  value: number | null;
  numerator: number | null;
  denominator: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  scope: FlatRowScope;
}

/** Every table's flat rows, in the report's order. */
export function reportRowsOf(report: StudyReport): FlatRow[] {
  const rows: FlatRow[] = [];
  for (const table of REPORT_TABLES) {
    const value = report[table.field];
    // A report read through GraphQL holds the fields its query asked for.
    if (!table.flat || value === undefined) continue;
    const prefix = tableName(table);
    const known = new Set(table.statistics);
    const emit: Emit = (statistic, scope, value, counts = {}) => {
      if (!known.has(statistic)) throw new Error(`${prefix}: "${statistic}" is not among its statistics`);
      rows.push({
        name: `${prefix}.${statistic}`,
        value: typeof value === "boolean" ? Number(value) : value,
        numerator: counts.numerator ?? null,
        denominator: counts.denominator ?? null,
        ciLow: counts.ciLow ?? null,
        ciHigh: counts.ciHigh ?? null,
        scope: {
          experimentId: report.experimentId,
          provider: report.subject?.provider ?? null,
          model: report.subject?.requestedModel ?? null,
          sampleId: scope.sampleId,
          sampleName: scope.sampleName,
          sampleSeed: scope.sampleSeed,
          dataset: scope.dataset ?? null,
          setting: scope.setting ?? null,
          shots: scope.shots ?? null,
          regime: scope.regime ?? null,
          measure: scope.measure ?? null,
          judge: scope.judge ?? null,
          otherSetting: scope.otherSetting ?? null,
          otherShots: scope.otherShots ?? null,
          otherDataset: scope.otherDataset ?? null,
          group: scope.group ?? null,
        },
      });
    };
    table.flat(value, emit);
  }
  return rows;
}

/** Every flat name the tables can write (for documentation, filters and tests). */
export const ROW_NAMES: readonly string[] = [
  ...new Set(
    REPORT_TABLES.flatMap((table) => table.statistics.map((statistic) => `${tableName(table)}.${statistic}`)),
  ),
];

/** Names flat rows had before each was named `<table>.<statistic>`: still accepted by filters, deprecated. */
export const FORMER_ROW_NAMES: ReadonlyMap<string, string> = new Map(
  REPORT_TABLES.flatMap((table) =>
    Object.entries(table.formerNames ?? {}).map(([former, statistic]) => [
      former,
      `${tableName(table)}.${statistic}`,
    ]),
  ),
);
