import { stringify } from "csv-stringify/sync";
import { ExperimentComparison } from "./report.types";
import { reportRowsOf } from "./report-rows";
import type { StudyReport } from "./study-report";

/** The report CSV's columns: the flat rows' (docs/REPORT-ROWS.md), the experiment's name beside its id. */
export const REPORT_CSV_COLUMNS = [
  "experiment_id",
  "experiment",
  "provider",
  "model",
  "name",
  "dataset",
  "sample_id",
  "sample_name",
  "sample_seed",
  "setting",
  "shots",
  "regime",
  "measure",
  "judge",
  "other_setting",
  "other_shots",
  "other_dataset",
  "group",
  "value",
  "numerator",
  "denominator",
  "ci_low",
  "ci_high",
] as const;

/**
 * The study's figures in one long CSV: the flat rows (reportRowsOf), one number a row with its counts, interval
 * and scope; tidy for notebooks, and each row says which experiment and model it is of, so that the CSVs of
 * several experiments can be concatenated.
 */
export function reportCsv(report: StudyReport): string {
  const experiment = report.subject?.experimentName ?? null;
  return stringify([
    [...REPORT_CSV_COLUMNS],
    ...reportRowsOf(report).map(({ scope, ...row }) => [
      scope.experimentId,
      experiment,
      scope.provider,
      scope.model,
      row.name,
      scope.dataset,
      scope.sampleId,
      scope.sampleName,
      scope.sampleSeed,
      scope.setting,
      scope.shots,
      scope.regime,
      scope.measure,
      scope.judge,
      scope.otherSetting,
      scope.otherShots,
      scope.otherDataset,
      scope.group,
      row.value,
      row.numerator,
      row.denominator,
      row.ciLow,
      row.ciHigh,
    ]),
  ]);
}

/**
 * A comparison as one long CSV: one row per number, with both experiments, their providers and models, and
 * the cell (dataset, kind, setting, k, measure).
 */
export function comparisonCsv(comparison: ExperimentComparison): string {
  const subjects = new Map(comparison.experiments.map((e) => [e.experimentId, e.subject]));
  const rows: (string | number | null)[][] = [
    [
      "experiment_a",
      "provider_a",
      "model_a",
      "experiment_b",
      "provider_b",
      "model_b",
      "dataset",
      "kind",
      "setting",
      "shots",
      "measure",
      "statistic",
      "value",
    ],
  ];
  for (const row of comparison.rows) {
    const [a, b] = [subjects.get(row.experimentA), subjects.get(row.experimentB)];
    const values: Record<string, number | null> = {
      pairs: row.pairs,
      both: row.both,
      onlyA: row.onlyA,
      onlyB: row.onlyB,
      neither: row.neither,
      rateA: row.rateA,
      rateB: row.rateB,
      difference: row.difference,
      mcnemarP: row.pValue,
      mcnemarPHolm: row.pValueHolm,
    };
    for (const [statistic, value] of Object.entries(values))
      rows.push([
        row.experimentA,
        a?.provider ?? null,
        a?.requestedModel ?? null,
        row.experimentB,
        b?.provider ?? null,
        b?.requestedModel ?? null,
        row.dataset,
        row.kind,
        row.setting,
        row.shots,
        row.measure,
        statistic,
        value,
      ]);
  }
  return stringify(rows);
}
