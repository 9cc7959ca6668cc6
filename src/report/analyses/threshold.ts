// The paper's threshold: does in-context learning beat zero-shot once memorization reaches some level? Pure.

import type { IclThresholdRow } from "../rows/icl-thresholds";
import type { PerformanceComparisonRow } from "../rows/performance-vs-zero-shot";
import {
  bySample,
  bySetting,
  groupItems,
  InstanceOutcome,
  instanceVerdict,
  isMemorized,
  SampleInfo,
  sampleFields,
} from "./rows";

/** A gain over zero-shot counts when McNemar's test rejects at this level and accuracy rose. */
export const THRESHOLD_ALPHA = 0.05;

/**
 * Per sample and memorization setting: at each k > 0, the memorized share of the instances (each once, by the
 * majority of its completions) beside the performance gain over zero-shot on the same sample (McNemar, from
 * `performanceVsZeroShot`); and the threshold: the lowest memorization level at which the gain is significant
 * (raw p < 0.05), with the highest level at which it is not. Null where no k shows a significant gain.
 */
export function iclThresholds(
  outcomes: readonly InstanceOutcome[],
  gains: readonly PerformanceComparisonRow[],
  samples: ReadonlyMap<string, SampleInfo>,
): IclThresholdRow[] {
  const gainOf = new Map(gains.map((row) => [`${row.sampleId}/${row.shots}`, row]));
  const rows: IclThresholdRow[] = [];
  for (const cells of groupItems(outcomes, (row) => `${row.sampleId}/${row.setting}`).values()) {
    const points: IclThresholdRow["points"] = [];
    for (const cell of groupItems(cells, (row) => String(row.shots)).values()) {
      const shots = cell[0].shots;
      const gain = gainOf.get(`${cell[0].sampleId}/${shots}`);
      if (shots === 0 || !gain) continue;
      const verdicts = cell.map(instanceVerdict).filter((verdict) => verdict !== null);
      if (verdicts.length === 0) continue;
      const memorizationRate = verdicts.filter(isMemorized).length / verdicts.length;
      points.push({
        shots,
        memorizationRate,
        gain: gain.difference,
        pValue: gain.pValue,
        significantGain: gain.difference > 0 && gain.pValue !== null && gain.pValue < THRESHOLD_ALPHA,
      });
    }
    if (points.length === 0) continue;
    points.sort((a, b) => a.shots - b.shots);
    const withGain = points.filter((point) => point.significantGain).map((point) => point.memorizationRate);
    const without = points.filter((point) => !point.significantGain).map((point) => point.memorizationRate);
    const info = samples.get(cells[0].sampleId);
    rows.push({
      dataset: info?.dataset ?? "?",
      ...sampleFields(info),
      setting: cells[0].setting,
      points,
      threshold: withGain.length > 0 ? Math.min(...withGain) : null,
      highestWithoutGain: without.length > 0 ? Math.max(...without) : null,
    });
  }
  return rows.sort((a, b) => bySample(a, b) || bySetting(a, b));
}
