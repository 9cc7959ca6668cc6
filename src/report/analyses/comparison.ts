// Two experiments (two models) side by side on the instances both ran: paired, instance by instance. Pure.

import { mcnemarExact } from "../../statistics/tests";
import { MemorizationMeasure } from "../../study/measures";
import { MemorizationSetting, RunKind, SETTING_ORDER } from "../../study/settings";
import type { ModelComparisonRow } from "../report.types";
import { InstanceOutcome, InstancePerformance, instanceKeyOf, instanceVerdict, SampleInfo } from "./rows";

/** What the comparison reads of one experiment. */
export interface ComparedData {
  experimentId: string;
  outcomes: readonly InstanceOutcome[];
  performance: readonly InstancePerformance[];
  samples: ReadonlyMap<string, SampleInfo>;
}

/** The datasets two experiments both ran (by name). */
export function sharedDatasets(a: ComparedData, b: ComparedData): string[] {
  const of = (data: ComparedData) => new Set([...data.samples.values()].map((info) => info.dataset));
  const theirs = of(b);
  return [...of(a)].filter((dataset) => theirs.has(dataset)).sort();
}

type Cell = { dataset: string; setting: MemorizationSetting | null; shots: number };

/** Per cell (dataset x setting x k), each dataset instance's outcome: true, false, or absent (not judged). */
function byCell<
  T extends { sampleId: string; sampledInstanceId: string; instanceId?: string; shots: number },
>(
  rows: readonly T[],
  samples: ReadonlyMap<string, SampleInfo>,
  setting: (row: T) => MemorizationSetting | null,
  outcome: (row: T) => boolean | null,
): Map<string, { cell: Cell; instances: Map<string, boolean> }> {
  const cells = new Map<string, { cell: Cell; instances: Map<string, boolean> }>();
  for (const row of rows) {
    const dataset = samples.get(row.sampleId)?.dataset;
    const value = outcome(row);
    if (dataset === undefined || value === null) continue;
    const cell = { dataset, setting: setting(row), shots: row.shots };
    const key = JSON.stringify(cell);
    const entry = cells.get(key) ?? { cell, instances: new Map<string, boolean>() };
    entry.instances.set(instanceKeyOf(row), value);
    cells.set(key, entry);
  }
  return cells;
}

function paired(
  kind: RunKind,
  measure: MemorizationMeasure | null,
  a: ComparedData,
  b: ComparedData,
  cellsA: ReturnType<typeof byCell>,
  cellsB: ReturnType<typeof byCell>,
): ModelComparisonRow[] {
  const rows: ModelComparisonRow[] = [];
  for (const [key, { cell, instances }] of cellsA) {
    const other = cellsB.get(key);
    if (!other) continue;
    let both = 0;
    let onlyA = 0;
    let onlyB = 0;
    let pairs = 0;
    for (const [instance, valueA] of instances) {
      const valueB = other.instances.get(instance);
      if (valueB === undefined) continue;
      pairs += 1;
      if (valueA && valueB) both += 1;
      else if (valueA) onlyA += 1;
      else if (valueB) onlyB += 1;
    }
    if (pairs === 0) continue;
    rows.push({
      experimentA: a.experimentId,
      experimentB: b.experimentId,
      kind,
      measure,
      ...cell,
      pairs,
      both,
      onlyA,
      onlyB,
      neither: pairs - both - onlyA - onlyB,
      rateA: (both + onlyA) / pairs,
      rateB: (both + onlyB) / pairs,
      difference: (onlyA - onlyB) / pairs,
      pValue: mcnemarExact(onlyA, onlyB),
      pValueHolm: null,
    });
  }
  return rows;
}

/**
 * Experiment A against B, cell by cell on the dataset instances both ran: memorized or not (each instance by the
 * majority of its completions, for each measure) per dataset x setting x k, and correct or not (the majority of
 * its repeats) per dataset x k; the rates over those instances, their difference, McNemar's exact test.
 */
export function compareExperiments(a: ComparedData, b: ComparedData): ModelComparisonRow[] {
  const rows: ModelComparisonRow[] = [];
  for (const measure of [MemorizationMeasure.EXACT_OR_NEAR_EXACT, MemorizationMeasure.EXACT_ONLY]) {
    const memorized = (row: InstanceOutcome) => {
      const verdict = instanceVerdict(row);
      if (verdict === null) return null;
      return measure === MemorizationMeasure.EXACT_ONLY ? verdict === "EXACT" : verdict !== "INEXACT";
    };
    const cells = (data: ComparedData) =>
      byCell(data.outcomes, data.samples, (row) => row.setting, memorized);
    rows.push(...paired(RunKind.MEMORIZATION, measure, a, b, cells(a), cells(b)));
  }
  const correct = (row: InstancePerformance) => (row.n > 0 ? 2 * row.correct > row.n : null);
  const performance = (data: ComparedData) => byCell(data.performance, data.samples, () => null, correct);
  rows.push(...paired(RunKind.PERFORMANCE, null, a, b, performance(a), performance(b)));
  return rows.sort(
    (x, y) =>
      x.dataset.localeCompare(y.dataset) ||
      x.kind.localeCompare(y.kind) ||
      String(x.measure).localeCompare(String(y.measure)) ||
      (x.setting ? SETTING_ORDER.indexOf(x.setting) : -1) -
        (y.setting ? SETTING_ORDER.indexOf(y.setting) : -1) ||
      x.shots - y.shots,
  );
}

/** Cells that pair fewer instances than this are called out: a paired test on them finds only large differences. */
export const FEW_PAIRS = 30;

/**
 * What a reader of a comparison must know before its p-values: experiments run on different samples (the cells
 * pair only the dataset instances both drew), and cells that pair few instances (how many, and the fewest).
 */
export function comparisonWarnings(
  compared: readonly ComparedData[],
  rows: readonly ModelComparisonRow[],
): string[] {
  const warnings: string[] = [];
  const samplesOf = (data: ComparedData) => [...data.samples.keys()].sort();
  for (let i = 0; i < compared.length; i += 1)
    for (let j = i + 1; j < compared.length; j += 1) {
      const [a, b] = [compared[i], compared[j]];
      const ofA = samplesOf(a);
      const ofB = samplesOf(b);
      if (ofA.join() === ofB.join()) continue;
      const pairs = rows.filter(
        (row) => row.experimentA === a.experimentId && row.experimentB === b.experimentId,
      );
      const largest = Math.max(0, ...pairs.map((row) => row.pairs));
      warnings.push(
        `experiments ${a.experimentId} and ${b.experimentId} ran different samples (${ofA.join(", ")} against ` +
          `${ofB.join(", ")}): each cell pairs only the dataset instances both drew, at most ${largest} here. ` +
          "Compare experiments on one sample to pair every instance.",
      );
    }
  const few = rows.filter((row) => row.pairs < FEW_PAIRS);
  if (few.length > 0) {
    const fewest = few.reduce((low, row) => (row.pairs < low.pairs ? row : low));
    warnings.push(
      `${few.length} of ${rows.length} cells pair fewer than ${FEW_PAIRS} instances (the fewest: ${fewest.pairs}, ` +
        `${fewest.dataset} ${fewest.kind.toLowerCase()}${fewest.setting ? ` ${fewest.setting}` : ""} k=${fewest.shots}): ` +
        "their paired tests find only large differences.",
    );
  }
  return warnings;
}
