// Time Travel's contamination rule on a seeded subset of instances. Pure.

import { RandomStream } from "../../common/random";
import { wilsonInterval } from "../../statistics/intervals";
import type { ContaminationRow } from "../rows/contamination";
import { cellList } from "./paired";
import { byCell, InstanceOutcome, isMemorized, SampleInfo, sampleFields } from "./rows";

/** Instances the original method looked at: 10. */
export const CONTAMINATION_SUBSET_SIZE = 10;

/**
 * The fixed subset of a sample the contamination rule is applied to: the first 10 of its sampled instances in an
 * order drawn from the sample's seed (the same for every setting, k and run, and for anyone who re-derives it).
 * The report passes the sample's non-trivial instances only: a match on a trivial target says nothing of memory.
 */
export function contaminationSubset(seed: string, sampledInstanceIds: readonly string[]): Set<string> {
  return new Set(
    RandomStream.derive(seed, "contamination-subset")
      .shuffle(sampledInstanceIds)
      .slice(0, CONTAMINATION_SUBSET_SIZE),
  );
}

/**
 * Per memorization cell: the rule as defined (>= 1 exact or >= 2 near-exact among the 10-instance subset) and the
 * memorization rate over every judged instance of the sample with its Wilson interval.
 */
export function contamination(
  outcomes: readonly InstanceOutcome[],
  subsets: ReadonlyMap<string, Set<string>>,
  samples: ReadonlyMap<string, SampleInfo>,
): ContaminationRow[] {
  const rows: ContaminationRow[] = [];
  for (const cell of cellList(outcomes)) {
    const subset = subsets.get(cell.sampleId) ?? new Set<string>();
    let subsetJudged = 0;
    let exact = 0;
    let nearExact = 0;
    let memorizedInstances = 0;
    for (const [instance, verdict] of cell.verdicts) {
      if (isMemorized(verdict)) memorizedInstances += 1;
      if (!subset.has(instance)) continue;
      subsetJudged += 1;
      if (verdict === "EXACT") exact += 1;
      if (verdict === "NEAR_EXACT") nearExact += 1;
    }
    const instances = cell.verdicts.size;
    const interval = wilsonInterval(memorizedInstances, instances);
    const info = samples.get(cell.sampleId);
    rows.push({
      dataset: info?.dataset ?? "?",
      ...sampleFields(info),
      setting: cell.setting,
      shots: cell.shots,
      subsetJudged,
      exact,
      nearExact,
      contaminated: exact >= 1 || nearExact >= 2,
      instances,
      memorizedInstances,
      rate: instances ? memorizedInstances / instances : null,
      ciLow: interval?.low ?? null,
      ciHigh: interval?.high ?? null,
    });
  }
  return rows.sort(byCell);
}
