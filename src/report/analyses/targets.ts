// Memorization over non-trivial targets only: a match on a one-word reference says nothing about memory. Pure.

import { wilsonInterval } from "../../statistics/intervals";
import type { TargetGroupRow } from "../rows/by-target";
import type { NonTrivialMemorizationRow } from "../rows/non-trivial";
import {
  byCell,
  InstanceOutcome,
  instanceVerdict,
  isMemorized,
  outcomeCells,
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
  for (const { outcomes: cell } of outcomeCells(outcomes).values()) {
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

/** What the breakdown by target reads of a sampled instance. */
export interface TargetInfo {
  label: string;
  /** Words of the reference (lower case, punctuation dropped). */
  words: number;
}

const LENGTH_BUCKETS: [number, string][] = [
  [2, "0-2"],
  [5, "3-5"],
  [10, "6-10"],
  [20, "11-20"],
  [Number.POSITIVE_INFINITY, "21+"],
];

/** The length bucket of a reference of `words` words. */
export const lengthBucket = (words: number) => LENGTH_BUCKETS.find(([most]) => words <= most)![1];

/**
 * Per cell (sample x setting x k): memorization within each label and each reference-length bucket, each
 * instance once (the majority of its completions), with Wilson intervals: does the model remember short targets
 * only, or one label's instances?
 */
export function memorizationByTarget(
  outcomes: readonly InstanceOutcome[],
  targets: ReadonlyMap<string, TargetInfo>,
  samples: ReadonlyMap<string, SampleInfo>,
): TargetGroupRow[] {
  const groups: { outcome: InstanceOutcome; groupBy: string; group: string; n: number; m: number }[] = [];
  // Per cell, a group per label and per length bucket (a key per outcome and group was most of this table's time).
  for (const cell of outcomeCells(outcomes).values()) {
    const cellGroups = new Map<string, (typeof groups)[number]>();
    for (const outcome of cell.outcomes) {
      const target = targets.get(outcome.sampledInstanceId);
      const verdict = instanceVerdict(outcome);
      if (!target || !verdict) continue;
      for (const [groupBy, group] of [
        ["LABEL", target.label],
        ["REFERENCE_LENGTH", lengthBucket(target.words)],
      ]) {
        const key = `${groupBy}\u0000${group}`;
        let entry = cellGroups.get(key);
        if (!entry) {
          entry = { outcome, groupBy, group, n: 0, m: 0 };
          cellGroups.set(key, entry);
          groups.push(entry);
        }
        entry.n += 1;
        if (isMemorized(verdict)) entry.m += 1;
      }
    }
  }
  const order = (row: TargetGroupRow) =>
    row.groupBy === "LABEL" ? row.group : String(LENGTH_BUCKETS.findIndex(([, name]) => name === row.group));
  return groups
    .map(({ outcome, groupBy, group, n, m }) => {
      const info = samples.get(outcome.sampleId);
      const interval = wilsonInterval(m, n);
      return {
        dataset: info?.dataset ?? "?",
        ...sampleFields(info),
        setting: outcome.setting,
        shots: outcome.shots,
        groupBy,
        group,
        instances: n,
        memorized: m,
        rate: n ? m / n : null,
        ciLow: interval?.low ?? null,
        ciHigh: interval?.high ?? null,
      };
    })
    .sort((a, b) => byCell(a, b) || a.groupBy.localeCompare(b.groupBy) || order(a).localeCompare(order(b)));
}
