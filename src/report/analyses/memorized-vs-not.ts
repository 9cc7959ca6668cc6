// Accuracy on memorized against non-memorized instances, counted per instance. Pure.

import { newcombeDifference } from "../../statistics/intervals";
import { fisherExact } from "../../statistics/tests";
import type { MemorizedVsNotRow } from "../rows/memorized-vs-not";
import {
  byCell,
  InstanceOutcome,
  InstancePerformance,
  instanceVerdict,
  isMemorized,
  outcomeCells,
  SampleInfo,
  sampleFields,
} from "./rows";

/**
 * Per memorization cell: performance (same sample and k, all repeats) of the memorized instances against the
 * others; the difference with its Newcombe interval, and Fisher's exact test, over instances (each correct or not
 * by the majority of its repeats), since repeats of one instance are not independent draws.
 */
export function memorizedVsNot(
  outcomes: readonly InstanceOutcome[],
  performance: readonly InstancePerformance[],
  samples: ReadonlyMap<string, SampleInfo>,
): MemorizedVsNotRow[] {
  // Ids and a number: no separator inside.
  const instanceKey = (row: { sampleId: string; shots: number; sampledInstanceId: string }) =>
    `${row.sampleId}\u001f${row.shots}\u001f${row.sampledInstanceId}`;
  const performanceOf = new Map(performance.map((row) => [instanceKey(row), row]));
  const rows: MemorizedVsNotRow[] = [];
  for (const { outcomes: cell } of outcomeCells(outcomes).values()) {
    const groups = {
      memorized: { instances: 0, n: 0, correct: 0, correctInstances: 0 },
      notMemorized: { instances: 0, n: 0, correct: 0, correctInstances: 0 },
    };
    for (const outcome of cell) {
      const verdict = instanceVerdict(outcome);
      const answered = performanceOf.get(instanceKey(outcome));
      if (!verdict || !answered || answered.n === 0) continue;
      const group = groups[isMemorized(verdict) ? "memorized" : "notMemorized"];
      group.instances += 1;
      group.n += answered.n;
      group.correct += answered.correct;
      // The instance is the unit: its repeats are not independent (at temperature 0 they are identical).
      if (2 * answered.correct > answered.n) group.correctInstances += 1;
    }
    const m = groups.memorized;
    const u = groups.notMemorized;
    if (m.instances + u.instances === 0) continue;
    const difference = newcombeDifference(m.correctInstances, m.instances, u.correctInstances, u.instances);
    const info = samples.get(cell[0].sampleId);
    rows.push({
      dataset: info?.dataset ?? "?",
      ...sampleFields(info),
      setting: cell[0].setting,
      shots: cell[0].shots,
      memorized: { ...m, accuracy: m.n ? m.correct / m.n : null },
      notMemorized: { ...u, accuracy: u.n ? u.correct / u.n : null },
      difference: difference?.difference ?? null,
      differenceCiLow: difference?.low ?? null,
      differenceCiHigh: difference?.high ?? null,
      pValue: fisherExact(
        m.correctInstances,
        m.instances - m.correctInstances,
        u.correctInstances,
        u.instances - u.correctInstances,
      ),
      pValueHolm: null,
    });
  }
  return rows.sort(byCell);
}
