import {
  pearson,
  pearsonBootstrapInterval,
  pearsonPermutationP,
  spearman,
} from "../../statistics/correlation";
import { MemorizationMeasure } from "../../study/measures";
import type { CorrelationRow } from "../rows/correlations";
import type { PerformanceRow } from "../rows/performance";
import { memorizedOf } from "./memorization";
import { bySample, bySetting, CellCount, groupItems, SampleInfo, sampleFields } from "./rows";

/** Below this many points, Pearson's r is reported as descriptive: no bootstrap interval, its exact permutation p. */
export const PEARSON_INTERVAL_MIN_POINTS = 10;

/** Per sample, setting and measure: Pearson and Spearman across k between mean accuracy and memorization rate. */
export function correlations(
  cells: readonly CellCount[],
  performance: readonly PerformanceRow[],
  samples: ReadonlyMap<string, SampleInfo>,
): CorrelationRow[] {
  const rows: CorrelationRow[] = [];
  const accuracyOf = new Map(
    performance
      .filter((row) => row.sampleId !== null)
      .map((row) => [`${row.sampleId}/${row.shots}`, row.meanAccuracy]),
  );
  for (const series of groupItems(cells, (cell) => JSON.stringify([cell.sampleId, cell.setting])).values()) {
    for (const measure of [MemorizationMeasure.EXACT_OR_NEAR_EXACT, MemorizationMeasure.EXACT_ONLY]) {
      const points = series
        .map((cell) => {
          const judged = cell.exact + cell.nearExact + cell.inexact;
          const accuracy = accuracyOf.get(`${cell.sampleId}/${cell.shots}`);
          return judged > 0 && accuracy != null
            ? {
                shots: cell.shots,
                memorization: memorizedOf(measure, cell.exact, cell.nearExact) / judged,
                performance: accuracy,
              }
            : null;
        })
        .filter(
          (point): point is { shots: number; memorization: number; performance: number } => point !== null,
        )
        .sort((a, b) => a.shots - b.shots);
      const xs = points.map((point) => point.performance);
      const ys = points.map((point) => point.memorization);
      const p = pearson(xs, ys);
      const s = spearman(xs, ys);
      const descriptive = points.length < PEARSON_INTERVAL_MIN_POINTS;
      const interval = p.r === null || descriptive ? null : pearsonBootstrapInterval(xs, ys);
      const info = samples.get(series[0].sampleId);
      rows.push({
        dataset: info?.dataset ?? "?",
        ...sampleFields(info),
        setting: series[0].setting,
        measure,
        points,
        n: points.length,
        pearson: p.r,
        pearsonPValue: p.pValue,
        pearsonPValueHolm: null,
        pearsonCiLow: interval?.low ?? null,
        pearsonCiHigh: interval?.high ?? null,
        pearsonDescriptive: descriptive,
        pearsonPermutationPValue: p.r === null ? null : pearsonPermutationP(xs, ys),
        spearman: s.r,
        spearmanPValue: s.pValue,
        spearmanPValueHolm: null,
        spearmanPValueMethod: s.pValueMethod,
      });
    }
  }
  return rows.sort((a, b) => bySample(a, b) || bySetting(a, b) || a.measure.localeCompare(b.measure));
}
