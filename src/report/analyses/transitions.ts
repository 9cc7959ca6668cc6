// Near-exact -> exact transitions between k values. Pure.

import { newcombeDifference, wilsonInterval } from "../../statistics/intervals";
import { fisherExact } from "../../statistics/tests";
import type { TransitionRateRow } from "../rows/transitions";
import { cellList } from "./paired";
import { bySample, bySetting, groupItems, InstanceOutcome, SampleInfo, sampleFields } from "./rows";

/**
 * For every pair of k (from < to) of a sample and setting: near-exact at `from` that are exact at `to`, against
 * the baseline of instances inexact at `from` that are exact at `to` (a rise with k that owes nothing to having
 * been near-exact shows in both), with their difference (Newcombe) and Fisher's exact test between the two.
 */
export function transitionRates(
  outcomes: readonly InstanceOutcome[],
  samples: ReadonlyMap<string, SampleInfo>,
): TransitionRateRow[] {
  const rows: TransitionRateRow[] = [];
  for (const cells of groupItems(cellList(outcomes), (cell) => `${cell.sampleId}/${cell.setting}`).values()) {
    const ordered = [...cells].sort((a, b) => a.shots - b.shots);
    for (let i = 0; i < ordered.length; i += 1) {
      for (let j = i + 1; j < ordered.length; j += 1) {
        let nearExact = 0;
        let becameExact = 0;
        let inexact = 0;
        let inexactBecameExact = 0;
        for (const [instance, verdict] of ordered[i].verdicts) {
          const later = ordered[j].verdicts.get(instance);
          if (!later) continue;
          if (verdict === "NEAR_EXACT") {
            nearExact += 1;
            if (later === "EXACT") becameExact += 1;
          } else if (verdict === "INEXACT") {
            inexact += 1;
            if (later === "EXACT") inexactBecameExact += 1;
          }
        }
        const interval = wilsonInterval(becameExact, nearExact);
        const baseline = wilsonInterval(inexactBecameExact, inexact);
        const difference = newcombeDifference(becameExact, nearExact, inexactBecameExact, inexact);
        const info = samples.get(ordered[i].sampleId);
        rows.push({
          dataset: info?.dataset ?? "?",
          ...sampleFields(info),
          setting: ordered[i].setting,
          fromShots: ordered[i].shots,
          toShots: ordered[j].shots,
          nearExact,
          becameExact,
          rate: nearExact ? becameExact / nearExact : null,
          ciLow: interval?.low ?? null,
          ciHigh: interval?.high ?? null,
          inexact,
          inexactBecameExact,
          baselineRate: inexact ? inexactBecameExact / inexact : null,
          baselineCiLow: baseline?.low ?? null,
          baselineCiHigh: baseline?.high ?? null,
          difference: difference?.difference ?? null,
          differenceCiLow: difference?.low ?? null,
          differenceCiHigh: difference?.high ?? null,
          pValue: fisherExact(
            becameExact,
            nearExact - becameExact,
            inexactBecameExact,
            inexact - inexactBecameExact,
          ),
        });
      }
    }
  }
  return rows.sort(
    (a, b) => bySample(a, b) || bySetting(a, b) || a.fromShots - b.fromShots || a.toShots - b.toShots,
  );
}
