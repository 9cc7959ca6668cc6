// In-context learning against zero-shot on performance: the same instances at k = 0 and at each k. Pure.

import { mcnemarExact } from "../../statistics/tests";
import type { PerformanceComparisonRow } from "../rows/performance-vs-zero-shot";
import { bySample, groupItems, InstancePerformance, SampleInfo, sampleFields } from "./rows";

/** An instance is correct in a cell when more than half of its answered repeats are (the instance is the unit). */
const correctInstance = (row: InstancePerformance) => 2 * row.correct > row.n;

/**
 * Per sample and k > 0: the instances answered both at k = 0 and at k, each correct or not by the majority of its
 * repeats, and McNemar's exact test on the discordant ones (does k demonstrations change accuracy?).
 */
export function performanceVsZeroShot(
  performance: readonly InstancePerformance[],
  samples: ReadonlyMap<string, SampleInfo>,
): PerformanceComparisonRow[] {
  const rows: PerformanceComparisonRow[] = [];
  for (const sampleRows of groupItems(performance, (row) => row.sampleId).values()) {
    const byShots = groupItems(
      sampleRows.filter((row) => row.n > 0),
      (row) => String(row.shots),
    );
    const zero = new Map((byShots.get("0") ?? []).map((row) => [row.sampledInstanceId, row]));
    if (zero.size === 0) continue;
    for (const [shots, cell] of byShots) {
      if (shots === "0") continue;
      let pairs = 0;
      let both = 0;
      let onlyZeroShot = 0;
      let onlyKShot = 0;
      for (const row of cell) {
        const atZero = zero.get(row.sampledInstanceId);
        if (!atZero) continue;
        pairs += 1;
        const before = correctInstance(atZero);
        const after = correctInstance(row);
        if (before && after) both += 1;
        else if (before) onlyZeroShot += 1;
        else if (after) onlyKShot += 1;
      }
      if (pairs === 0) continue;
      const info = samples.get(cell[0].sampleId);
      rows.push({
        dataset: info?.dataset ?? "?",
        ...sampleFields(info),
        shots: Number(shots),
        pairs,
        bothCorrect: both,
        onlyZeroShot,
        onlyKShot,
        neither: pairs - both - onlyZeroShot - onlyKShot,
        accuracyZeroShot: (both + onlyZeroShot) / pairs,
        accuracyKShot: (both + onlyKShot) / pairs,
        difference: (onlyKShot - onlyZeroShot) / pairs,
        pValue: mcnemarExact(onlyKShot, onlyZeroShot),
      });
    }
  }
  return rows.sort((a, b) => bySample(a, b) || a.shots - b.shots);
}
