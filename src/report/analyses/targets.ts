// Memorization over non-trivial targets only: a match on a one-word reference says nothing about memory. Pure.

import { wilsonInterval } from "../../statistics/intervals";
import type { NonTrivialMemorizationRow } from "../report.types";
import {
  byCell,
  groupItems,
  InstanceOutcome,
  instanceVerdict,
  isMemorized,
  SampleInfo,
  sampleFields,
} from "./rows";

/**
 * Per cell (sample x setting x k): the instances whose reference is not trivial, memorized (exact or
 * near-exact, by the majority of their judged completions) or not, with a Wilson interval, beside how many
 * trivial ones were left out.
 */
export function nonTrivialMemorization(
  outcomes: readonly InstanceOutcome[],
  trivial: ReadonlySet<string>,
  samples: ReadonlyMap<string, SampleInfo>,
): NonTrivialMemorizationRow[] {
  const rows: NonTrivialMemorizationRow[] = [];
  for (const cell of groupItems(outcomes, (row) =>
    JSON.stringify([row.sampleId, row.setting, row.shots]),
  ).values()) {
    let instances = 0;
    let memorized = 0;
    let trivialInstances = 0;
    for (const outcome of cell) {
      const verdict = instanceVerdict(outcome);
      if (!verdict) continue;
      if (trivial.has(outcome.sampledInstanceId)) {
        trivialInstances += 1;
        continue;
      }
      instances += 1;
      if (isMemorized(verdict)) memorized += 1;
    }
    const interval = wilsonInterval(memorized, instances);
    const info = samples.get(cell[0].sampleId);
    rows.push({
      dataset: info?.dataset ?? "?",
      ...sampleFields(info),
      setting: cell[0].setting,
      shots: cell[0].shots,
      instances,
      memorized,
      trivialInstances,
      rate: instances ? memorized / instances : null,
      ciLow: interval?.low ?? null,
      ciHigh: interval?.high ?? null,
    });
  }
  return rows.sort(byCell);
}
