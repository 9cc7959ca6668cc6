// Paired comparisons on the same instances: settings against each other, k = 0 against each k. Pure.

import { mcnemarExact } from "../../statistics/tests";
import { MemorizationSetting, SETTING_ORDER } from "../../study/settings";
import type { PairedComparisonRow } from "../rows/paired";
import {
  bySample,
  groupItems,
  InstanceOutcome,
  InstanceVerdict,
  instanceVerdict,
  isMemorized,
  outcomeCells,
  SampleInfo,
  sampleFields,
} from "./rows";

export type VerdictMap = Map<string, InstanceVerdict>;

function compare(
  info: SampleInfo | undefined,
  a: { setting: MemorizationSetting; shots: number; verdicts: VerdictMap },
  b: { setting: MemorizationSetting; shots: number; verdicts: VerdictMap },
): PairedComparisonRow {
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  let neither = 0;
  for (const [instance, verdictA] of a.verdicts) {
    const verdictB = b.verdicts.get(instance);
    if (!verdictB) continue;
    const memorizedA = isMemorized(verdictA);
    const memorizedB = isMemorized(verdictB);
    if (memorizedA && memorizedB) both += 1;
    else if (memorizedA) onlyA += 1;
    else if (memorizedB) onlyB += 1;
    else neither += 1;
  }
  const pairs = both + onlyA + onlyB + neither;
  return {
    dataset: info?.dataset ?? "?",
    ...sampleFields(info),
    settingA: a.setting,
    shotsA: a.shots,
    settingB: b.setting,
    shotsB: b.shots,
    pairs,
    bothMemorized: both,
    onlyA,
    onlyB,
    neither,
    rateA: pairs ? (both + onlyA) / pairs : null,
    rateB: pairs ? (both + onlyB) / pairs : null,
    difference: pairs ? (onlyA - onlyB) / pairs : null,
    pValue: mcnemarExact(onlyA, onlyB),
    pValueHolm: null,
  };
}

export interface CellVerdicts {
  sampleId: string;
  setting: MemorizationSetting;
  shots: number;
  verdicts: VerdictMap;
}

const verdictCells = new WeakMap<readonly InstanceOutcome[], { length: number; cells: CellVerdicts[] }>();

/**
 * Each cell's judged instances and their verdicts, computed once per array of outcomes (`outcomeCells`): the
 * paired tests and the transitions read the same cells. Read-only, as the outcomes are.
 */
export function cellList(outcomes: readonly InstanceOutcome[]): CellVerdicts[] {
  const known = verdictCells.get(outcomes);
  if (known && known.length === outcomes.length) return known.cells;
  const cells: CellVerdicts[] = [];
  for (const cell of outcomeCells(outcomes).values()) {
    const verdicts: VerdictMap = new Map();
    for (const outcome of cell.outcomes) {
      const verdict = instanceVerdict(outcome);
      if (verdict) verdicts.set(outcome.sampledInstanceId, verdict);
    }
    if (verdicts.size > 0)
      cells.push({ sampleId: cell.sampleId, setting: cell.setting, shots: cell.shots, verdicts });
  }
  verdictCells.set(outcomes, { length: outcomes.length, cells });
  return cells;
}

/** McNemar between every pair of settings at each k of a sample, on the instances judged in both. */
export function settingComparisons(
  outcomes: readonly InstanceOutcome[],
  samples: ReadonlyMap<string, SampleInfo>,
): PairedComparisonRow[] {
  const rows: PairedComparisonRow[] = [];
  for (const cells of groupItems(cellList(outcomes), (cell) => `${cell.sampleId}/${cell.shots}`).values()) {
    const ordered = [...cells].sort(
      (a, b) => SETTING_ORDER.indexOf(a.setting) - SETTING_ORDER.indexOf(b.setting),
    );
    for (let i = 0; i < ordered.length; i += 1)
      for (let j = i + 1; j < ordered.length; j += 1)
        rows.push(compare(samples.get(ordered[i].sampleId), ordered[i], ordered[j]));
  }
  return rows.sort(
    (a, b) =>
      bySample(a, b) ||
      a.shotsA - b.shotsA ||
      SETTING_ORDER.indexOf(a.settingA) - SETTING_ORDER.indexOf(b.settingA) ||
      SETTING_ORDER.indexOf(a.settingB) - SETTING_ORDER.indexOf(b.settingB),
  );
}

/** McNemar between k = 0 and each k > 0 of a sample and setting, on the instances judged in both. */
export function zeroVsK(
  outcomes: readonly InstanceOutcome[],
  samples: ReadonlyMap<string, SampleInfo>,
): PairedComparisonRow[] {
  const rows: PairedComparisonRow[] = [];
  for (const cells of groupItems(cellList(outcomes), (cell) => `${cell.sampleId}/${cell.setting}`).values()) {
    const zero = cells.find((cell) => cell.shots === 0);
    if (!zero) continue;
    for (const cell of cells.filter((c) => c.shots > 0).sort((a, b) => a.shots - b.shots))
      rows.push(compare(samples.get(zero.sampleId), zero, cell));
  }
  return rows.sort(
    (a, b) =>
      bySample(a, b) ||
      SETTING_ORDER.indexOf(a.settingA) - SETTING_ORDER.indexOf(b.settingA) ||
      a.shotsB - b.shotsB,
  );
}
