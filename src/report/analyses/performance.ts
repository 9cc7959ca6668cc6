// Performance by dataset, sample and k: accuracy over repeats and instances. Pure.

import { clusterRateInterval } from "../../statistics/bootstrap";
import { meanAndSpread } from "../../statistics/descriptive";
import { wilsonInterval } from "../../statistics/intervals";
import { IntervalMethod } from "../../study/measures";
import type { PerformanceRow } from "../rows/performance";
import {
  bySample,
  compareNullable,
  groupItems,
  InstancePerformance,
  RepeatPerformance,
  SampleInfo,
  sampleFields,
  sum,
} from "./rows";

/**
 * Accuracy per sample x k (and pooled per dataset x k when a dataset has several samples): correct / answered over
 * all repeats with a 95% interval (Wilson with one repeat; a cluster bootstrap over instances with several, since
 * an instance's repeats are not independent), the mean and spread of the repeats' accuracies, and the unparseable
 * and failed counts beside it.
 */
export function performanceRows(
  repeats: readonly RepeatPerformance[],
  instances: readonly InstancePerformance[],
  samples: ReadonlyMap<string, SampleInfo>,
): PerformanceRow[] {
  // Sample ids and a number: no separator inside.
  const cells = groupItems(repeats, (row) => `${row.sampleId}\u001f${row.shots}`);
  const instancesByCell = groupItems(instances, (row) => `${row.sampleId}\u001f${row.shots}`);
  const rows: PerformanceRow[] = [];
  const build = (
    cellRepeats: readonly RepeatPerformance[],
    cellInstances: readonly InstancePerformance[],
    info: SampleInfo | undefined,
    sampleAccuracies: number[] | null,
  ): PerformanceRow => {
    const sampleIds = new Set(cellRepeats.map((row) => row.sampleId));
    const n = sum(cellRepeats.map((row) => row.n));
    const correct = sum(cellRepeats.map((row) => row.correct));
    const answered = cellRepeats.filter((row) => row.n > 0);
    const { mean, standardDeviation } = meanAndSpread(answered.map((row) => row.correct / row.n));
    const repeatCount = Math.max(
      ...[...sampleIds].map((id) => cellRepeats.filter((r) => r.sampleId === id).length),
    );
    const clustered =
      repeatCount > 1
        ? clusterRateInterval(cellInstances.map((row) => ({ successes: row.correct, trials: row.n })))
        : null;
    const interval = clustered ? clustered.interval : wilsonInterval(correct, n);
    return {
      dataset: samples.get(cellRepeats[0].sampleId)?.dataset ?? "?",
      ...sampleFields(info),
      shots: cellRepeats[0].shots,
      repeats: repeatCount,
      n,
      correct,
      unparseable: sum(cellRepeats.map((row) => row.unparseable)),
      failed: sum(cellRepeats.map((row) => row.failed)),
      accuracy: n ? correct / n : null,
      ciLow: interval?.low ?? null,
      ciHigh: interval?.high ?? null,
      intervalMethod: clustered
        ? clustered.byInstances
          ? IntervalMethod.WILSON_BY_INSTANCE
          : IntervalMethod.CLUSTER_BOOTSTRAP
        : interval
          ? IntervalMethod.WILSON
          : null,
      samples: sampleIds.size,
      betweenSampleStandardDeviation:
        sampleAccuracies && sampleAccuracies.length > 1
          ? meanAndSpread(sampleAccuracies).standardDeviation
          : null,
      meanAccuracy: mean,
      accuracyStandardDeviation: standardDeviation,
    };
  };
  for (const [id, cellRepeats] of cells) {
    rows.push(build(cellRepeats, instancesByCell.get(id) ?? [], samples.get(cellRepeats[0].sampleId), null));
  }
  const pooled = groupItems(rows, (row) => JSON.stringify([row.dataset, row.shots]));
  for (const perSampleRows of pooled.values()) {
    if (perSampleRows.length < 2) continue;
    const ids = new Set(perSampleRows.map((row) => row.sampleId));
    const shots = perSampleRows[0].shots;
    rows.push(
      build(
        repeats.filter((row) => ids.has(row.sampleId) && row.shots === shots),
        instances.filter((row) => ids.has(row.sampleId) && row.shots === shots),
        undefined,
        perSampleRows.map((row) => row.accuracy).filter((a): a is number => a !== null),
      ),
    );
  }
  return rows.sort(
    (a, b) =>
      compareNullable(a.dataset, b.dataset) ||
      compareNullable(a.sampleId === null ? null : 0, b.sampleId === null ? null : 0) ||
      bySample(a, b) ||
      a.shots - b.shots,
  );
}
