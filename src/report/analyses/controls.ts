// Each rate against its control dataset's: data the model cannot have memorized (published after its cutoff,
// or never published), run on the same grid. Pure.

import { newcombeDifference, wilsonInterval } from "../../statistics/intervals";
import { fisherExact } from "../../statistics/tests";
import { MemorizationSetting } from "../../study/settings";
import type { ControlComparisonRow } from "../rows/versus-control";
import { bySetting, InstanceOutcome, instanceKeyOf, instanceVerdict, isMemorized, SampleInfo } from "./rows";

interface Tally {
  instances: number;
  memorized: number;
  samples: Set<string>;
}

/**
 * Per dataset with a control in the experiment, setting and k run on both: the memorized share of the dataset's
 * non-trivial instances and of its control's (each dataset instance once, by the majority of its judged completions in
 * every sample that drew it), their difference with Newcombe's interval, and Fisher's exact test (two-sided, raw).
 */
export function versusControl(
  allOutcomes: readonly InstanceOutcome[],
  samples: ReadonlyMap<string, SampleInfo>,
  trivial: ReadonlySet<string> = new Set(),
): ControlComparisonRow[] {
  if (![...samples.values()].some((info) => info.controlOf)) return [];
  // Over non-trivial targets only: a short target is cheap to match, and two datasets whose targets differ in
  // length would otherwise differ for that alone (a constant "?" scored TREC far below its control).
  const outcomes = allOutcomes.filter((outcome) => !trivial.has(outcome.sampledInstanceId));
  // An instance two samples of a dataset drew counts once: its completions of both make its verdict.
  const merged = new Map<string, InstanceOutcome & { dataset: string }>();
  for (const outcome of outcomes) {
    const info = samples.get(outcome.sampleId);
    if (!info) continue;
    const key = JSON.stringify([info.dataset, outcome.setting, outcome.shots, instanceKeyOf(outcome)]);
    const seen = merged.get(key);
    if (seen) {
      seen.judged += outcome.judged;
      seen.exact += outcome.exact;
      seen.nearExact += outcome.nearExact;
    } else merged.set(key, { ...outcome, dataset: info.dataset });
  }
  const tallies = new Map<string, Tally>();
  const sampleSets = new Map<string, Set<string>>();
  for (const outcome of outcomes) {
    const info = samples.get(outcome.sampleId);
    if (!info) continue;
    const key = JSON.stringify([info.dataset, outcome.setting, outcome.shots]);
    const set = sampleSets.get(key) ?? new Set<string>();
    set.add(outcome.sampleId);
    sampleSets.set(key, set);
  }
  for (const outcome of merged.values()) {
    const verdict = instanceVerdict(outcome);
    if (!verdict) continue;
    const key = JSON.stringify([outcome.dataset, outcome.setting, outcome.shots]);
    const tally = tallies.get(key) ?? { instances: 0, memorized: 0, samples: sampleSets.get(key)! };
    tally.instances += 1;
    if (isMemorized(verdict)) tally.memorized += 1;
    tallies.set(key, tally);
  }
  const controls = new Map<string, Set<string>>();
  for (const info of samples.values()) {
    if (!info.controlOf) continue;
    const set = controls.get(info.controlOf) ?? new Set<string>();
    set.add(info.dataset);
    controls.set(info.controlOf, set);
  }
  const rows: ControlComparisonRow[] = [];
  for (const [key, tally] of tallies) {
    const [dataset, setting, shots] = JSON.parse(key) as [string, MemorizationSetting, number];
    for (const controlDataset of controls.get(dataset) ?? []) {
      const control = tallies.get(JSON.stringify([controlDataset, setting, shots]));
      if (!control) continue;
      const difference = newcombeDifference(
        tally.memorized,
        tally.instances,
        control.memorized,
        control.instances,
      );
      const own = wilsonInterval(tally.memorized, tally.instances);
      const theirs = wilsonInterval(control.memorized, control.instances);
      rows.push({
        dataset,
        controlDataset,
        setting,
        shots,
        samples: tally.samples.size,
        controlSamples: control.samples.size,
        instances: tally.instances,
        memorized: tally.memorized,
        rate: tally.instances ? tally.memorized / tally.instances : null,
        ciLow: own?.low ?? null,
        ciHigh: own?.high ?? null,
        controlInstances: control.instances,
        controlMemorized: control.memorized,
        controlRate: control.instances ? control.memorized / control.instances : null,
        controlCiLow: theirs?.low ?? null,
        controlCiHigh: theirs?.high ?? null,
        difference: difference?.difference ?? null,
        differenceCiLow: difference?.low ?? null,
        differenceCiHigh: difference?.high ?? null,
        pValue: fisherExact(
          tally.memorized,
          tally.instances - tally.memorized,
          control.memorized,
          control.instances - control.memorized,
        ),
        pValueHolm: null,
      });
    }
  }
  return rows.sort(
    (a, b) =>
      a.dataset.localeCompare(b.dataset) ||
      a.controlDataset.localeCompare(b.controlDataset) ||
      bySetting(a, b) ||
      a.shots - b.shots,
  );
}
