// Memorization breakdowns: rates by dataset, sample, setting, k and regime, with their intervals. Pure.

import { clusterRateInterval } from "../../statistics/bootstrap";
import { meanAndSpread } from "../../statistics/descriptive";
import { Interval, wilsonInterval } from "../../statistics/intervals";
import { BreakdownGroup, IntervalMethod, MemorizationMeasure } from "../../study/measures";
import { REGIME_ORDER, Regime, regimeOf } from "../../study/regime";
import { MemorizationSetting, SETTING_ORDER } from "../../study/settings";
import type { ResultFilter } from "../report.inputs";
import type { MemorizationBreakdownRow } from "../rows/memorization";

/** A breakdown row as computed (the service stamps when the results it counts were read). */
export type BreakdownRow = Omit<MemorizationBreakdownRow, "computedAt">;

import { appendTo } from "../../common/collections";
import {
  bySample,
  CellCount,
  cellKey,
  compareNullable,
  InstanceOutcome,
  instanceKeyOf,
  outcomeCells,
  SampleInfo,
  sampleFields,
} from "./rows";

interface BreakdownKey {
  dataset: string | null;
  setting: MemorizationSetting | null;
  shots: number | null;
  regime: Regime | null;
}

interface Group {
  key: BreakdownKey;
  sampleIds: Set<string>;
  cells: CellCount[];
}

export const memorizedOf = (measure: MemorizationMeasure, exact: number, nearExact: number) =>
  measure === MemorizationMeasure.EXACT_ONLY ? exact : exact + nearExact;

/**
 * Cells whose instances can count more than once in a group: the group then needs instance outcomes. A dataset
 * with several samples always does: its pooled rows must see whether two samples drew the same instance.
 */
export function needsInstanceOutcomes(
  cells: readonly CellCount[],
  groupBy: readonly BreakdownGroup[],
  samples?: ReadonlyMap<string, SampleInfo>,
): boolean {
  const pooledCells = !groupBy.includes(BreakdownGroup.SETTING) || !groupBy.includes(BreakdownGroup.SHOTS);
  const samplesOf = new Map<string, Set<string>>();
  for (const cell of cells) {
    const dataset = samples?.get(cell.sampleId)?.dataset ?? cell.sampleId;
    samplesOf.set(dataset, (samplesOf.get(dataset) ?? new Set()).add(cell.sampleId));
  }
  const pooledSamples = [...samplesOf.values()].some((ids) => ids.size > 1);
  return pooledCells || pooledSamples || cells.some((cell) => cell.runs > 1 || cell.maxRepeats > 1);
}

/**
 * Groups cell counts as asked and turns them into rates with 95% intervals: Wilson when each instance counts once
 * in the row (one cell per sample, one run, one repeat, no dataset instance drawn by two of its samples), else a
 * cluster bootstrap over the dataset's instances (which must then be given). Grouped by sample, a dataset with several samples also gets a pooled row with the spread of the
 * per-sample rates.
 */
export function breakdown(
  cells: readonly CellCount[],
  samples: ReadonlyMap<string, SampleInfo>,
  instances: readonly InstanceOutcome[] | null,
  filter: Omit<ResultFilter, "experimentId">,
  groupBy: readonly BreakdownGroup[],
  measure: MemorizationMeasure,
): BreakdownRow[] {
  const datasetOf = (sampleId: string) => samples.get(sampleId)?.dataset ?? "?";
  const kept = cells.filter(
    (cell) =>
      (!filter.datasets || filter.datasets.includes(datasetOf(cell.sampleId))) &&
      (!filter.settings || filter.settings.includes(cell.setting)) &&
      (!filter.shots || filter.shots.includes(cell.shots)) &&
      (!filter.regimes || filter.regimes.includes(regimeOf(cell.shots) as Regime)),
  );
  const bySampleToo = groupBy.includes(BreakdownGroup.SAMPLE);
  const keyOf = (cell: CellCount): BreakdownKey => ({
    dataset: groupBy.includes(BreakdownGroup.DATASET) ? datasetOf(cell.sampleId) : null,
    setting: groupBy.includes(BreakdownGroup.SETTING) ? cell.setting : null,
    shots: groupBy.includes(BreakdownGroup.SHOTS) ? cell.shots : null,
    regime: groupBy.includes(BreakdownGroup.REGIME) ? (regimeOf(cell.shots) as Regime) : null,
  });
  const pooled = new Map<string, Group>();
  const perSample = new Map<string, Group>();
  /** The per-sample groups of each pooled group, for the spread between samples. */
  const partsOf = new Map<string, Group[]>();
  for (const cell of kept) {
    const key = keyOf(cell);
    const pooledId = JSON.stringify(key);
    const add = (map: Map<string, Group>, id: string) => {
      let group = map.get(id);
      if (!group) {
        group = { key, sampleIds: new Set<string>(), cells: [] };
        map.set(id, group);
        if (map === perSample) appendTo(partsOf, pooledId, group);
      }
      group.sampleIds.add(cell.sampleId);
      group.cells.push(cell);
    };
    add(pooled, pooledId);
    add(perSample, JSON.stringify([key, cell.sampleId]));
  }

  const instancesByCell = outcomeCells(instances ?? []);

  const totals = (group: Group) => {
    const sumOf = (
      field: "exact" | "nearExact" | "inexact" | "unjudged" | "unsureNearExact" | "unsureInexact",
    ) => group.cells.reduce((total, cell) => total + cell[field], 0);
    const [exact, nearExact, inexact, unjudged] = [
      sumOf("exact"),
      sumOf("nearExact"),
      sumOf("inexact"),
      sumOf("unjudged"),
    ];
    const n = exact + nearExact + inexact;
    const memorized = memorizedOf(measure, exact, nearExact);
    // Exact verdicts are sure: exact-only memorization has no band.
    const [unsureNearExact, unsureInexact] =
      measure === MemorizationMeasure.EXACT_ONLY
        ? [0, 0]
        : [sumOf("unsureNearExact"), sumOf("unsureInexact")];
    return { exact, nearExact, inexact, unjudged, n, memorized, unsureNearExact, unsureInexact };
  };

  const row = (group: Group, sampleRates: number[] | null): BreakdownRow => {
    const { exact, nearExact, inexact, unjudged, n, memorized, unsureNearExact, unsureInexact } =
      totals(group);
    const outcomesOf = (cell: CellCount) =>
      instancesByCell.get(cellKey(cell.sampleId, cell.setting, cell.shots))?.outcomes ?? [];
    // Across samples, an instance two of them drew would count twice in a Wilson interval.
    const sharedInstance = () => {
      if (group.sampleIds.size < 2 || !instances) return false;
      const keys = group.cells.flatMap((cell) => outcomesOf(cell).map(instanceKeyOf));
      return new Set(keys).size < keys.length;
    };
    const countsOnce =
      group.cells.length === group.sampleIds.size &&
      group.cells.every((c) => c.runs <= 1 && c.maxRepeats <= 1) &&
      !sharedInstance();
    let interval: Interval | null;
    let intervalMethod: IntervalMethod | null;
    if (countsOnce) {
      interval = wilsonInterval(memorized, n);
      intervalMethod = interval && IntervalMethod.WILSON;
    } else {
      if (!instances) throw new Error("breakdown: this grouping needs instance outcomes");
      const clusters = new Map<string, { successes: number; trials: number }>();
      for (const cell of group.cells) {
        for (const outcome of outcomesOf(cell)) {
          // A dataset instance drawn by two pooled samples is one cluster: it counts once in the interval.
          const id = instanceKeyOf(outcome);
          const cluster = clusters.get(id) ?? { successes: 0, trials: 0 };
          cluster.successes += memorizedOf(measure, outcome.exact, outcome.nearExact);
          cluster.trials += outcome.judged;
          clusters.set(id, cluster);
        }
      }
      const clustered = clusterRateInterval([...clusters.values()]);
      interval = clustered?.interval ?? null;
      intervalMethod = clustered
        ? clustered.byInstances
          ? IntervalMethod.WILSON_BY_INSTANCE
          : IntervalMethod.CLUSTER_BOOTSTRAP
        : null;
    }
    const spread =
      sampleRates && sampleRates.length > 1 ? meanAndSpread(sampleRates).standardDeviation : null;
    const only = group.sampleIds.size === 1 ? samples.get([...group.sampleIds][0]) : undefined;
    return {
      ...group.key,
      ...sampleFields(only),
      n,
      exact,
      nearExact,
      inexact,
      unjudged,
      memorized,
      rate: n ? memorized / n : null,
      unsureNearExact,
      unsureInexact,
      judgeLow: n ? (memorized - unsureNearExact) / n : null,
      judgeHigh: n ? (memorized + unsureInexact) / n : null,
      ciLow: interval?.low ?? null,
      ciHigh: interval?.high ?? null,
      intervalMethod,
      samples: group.sampleIds.size,
      betweenSampleStandardDeviation: spread,
    };
  };

  const ratesOfSamples = (key: string) =>
    (partsOf.get(key) ?? [])
      .map(totals)
      .filter((part) => part.n > 0)
      .map((part) => part.memorized / part.n);

  const rows: BreakdownRow[] = [];
  if (bySampleToo) {
    for (const group of perSample.values()) rows.push(row(group, null));
    for (const [key, group] of pooled)
      if (group.sampleIds.size > 1) rows.push(row(group, ratesOfSamples(key)));
  } else {
    for (const [key, group] of pooled) rows.push(row(group, ratesOfSamples(key)));
  }
  return rows.sort(
    (a, b) =>
      compareNullable(a.dataset, b.dataset) ||
      compareNullable(a.sampleId === null ? null : 0, b.sampleId === null ? null : 0) ||
      bySample(a, b) ||
      SETTING_ORDER.indexOf(a.setting!) - SETTING_ORDER.indexOf(b.setting!) ||
      compareNullable(a.shots, b.shots) ||
      (a.regime ? REGIME_ORDER.indexOf(a.regime) : -1) - (b.regime ? REGIME_ORDER.indexOf(b.regime) : -1),
  );
}
