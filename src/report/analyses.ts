// The study's analyses as pure functions of a few kinds of rows the SQL of report.sql.ts returns: counts per cell
// (sample x setting x k), outcomes per instance of a cell, performance per repeat and per instance. No I/O here.

import { RandomStream } from "../common/random";
import { clusterBootstrapRate } from "../statistics/bootstrap";
import { pearson, pearsonBootstrapInterval, spearman } from "../statistics/correlation";
import { meanAndSpread } from "../statistics/descriptive";
import { Interval, newcombeDifference, wilsonInterval } from "../statistics/intervals";
import { fisherExact, mcnemarExact } from "../statistics/tests";
import { BreakdownGroup, IntervalMethod, MemorizationMeasure } from "../study/measures";
import { REGIME_ORDER, Regime, regimeOf } from "../study/regime";
import { MemorizationSetting, SETTING_ORDER } from "../study/settings";
import type {
  ContaminationRow,
  CorrelationRow,
  MemorizationBreakdownRow,
  MemorizedVsNotRow,
  PairedComparisonRow,
  PerformanceRow,
  ResultFilter,
  TransitionRateRow,
} from "./report.types";

export interface SampleInfo {
  sampleId: string;
  sampleName: string | null;
  sampleSeed: string;
  dataset: string;
}

/** Verdict counts of one memorization cell (sample x setting x k), summed over its runs. */
export interface CellCount {
  sampleId: string;
  setting: MemorizationSetting;
  shots: number;
  runs: number;
  maxRepeats: number;
  exact: number;
  nearExact: number;
  inexact: number;
  unjudged: number;
}

/** One instance's judged completions in one memorization cell. */
export interface InstanceOutcome {
  sampleId: string;
  setting: MemorizationSetting;
  shots: number;
  sampledInstanceId: string;
  judged: number;
  exact: number;
  nearExact: number;
}

/** One repeat of a performance cell (sample x k). */
export interface RepeatPerformance {
  sampleId: string;
  shots: number;
  repeat: number;
  n: number;
  correct: number;
  unparseable: number;
  failed: number;
}

/** One instance's answered performance completions (all repeats) in a cell (sample x k). */
export interface InstancePerformance {
  sampleId: string;
  shots: number;
  sampledInstanceId: string;
  n: number;
  correct: number;
}

export type InstanceVerdict = "EXACT" | "NEAR_EXACT" | "INEXACT";

/**
 * An instance's verdict in a cell: EXACT when at least half its judged completions are exact, else NEAR_EXACT when
 * at least half are exact or near-exact, else INEXACT; null when none is judged. With one completion per instance
 * (the study's design) it is that completion's verdict.
 */
export function instanceVerdict(
  outcome: Pick<InstanceOutcome, "judged" | "exact" | "nearExact">,
): InstanceVerdict | null {
  if (outcome.judged === 0) return null;
  if (2 * outcome.exact >= outcome.judged) return "EXACT";
  if (2 * (outcome.exact + outcome.nearExact) >= outcome.judged) return "NEAR_EXACT";
  return "INEXACT";
}

const isMemorized = (verdict: InstanceVerdict | null) => verdict === "EXACT" || verdict === "NEAR_EXACT";

function sampleFields(info: SampleInfo | undefined) {
  return {
    sampleId: info?.sampleId ?? null,
    sampleName: info?.sampleName ?? null,
    sampleSeed: info?.sampleSeed ?? null,
  };
}

function compareNullable(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1; // pooled rows after the per-sample ones
  if (b === null) return -1;
  return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
}

interface SampleOrdered {
  dataset: string | null;
  sampleSeed: string | null;
  sampleId: string | null;
}

function bySample(a: SampleOrdered, b: SampleOrdered): number {
  return (
    compareNullable(a.dataset, b.dataset) ||
    compareNullable(
      a.sampleSeed === null ? null : Number(a.sampleSeed),
      b.sampleSeed === null ? null : Number(b.sampleSeed),
    ) ||
    compareNullable(a.sampleId, b.sampleId)
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Memorization breakdown

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

const memorizedOf = (measure: MemorizationMeasure, exact: number, nearExact: number) =>
  measure === MemorizationMeasure.EXACT_ONLY ? exact : exact + nearExact;

/** Cells whose instances can count more than once in a group: the group then needs instance outcomes. */
export function needsInstanceOutcomes(
  cells: readonly CellCount[],
  groupBy: readonly BreakdownGroup[],
): boolean {
  const pooledCells = !groupBy.includes(BreakdownGroup.SETTING) || !groupBy.includes(BreakdownGroup.SHOTS);
  return pooledCells || cells.some((cell) => cell.runs > 1 || cell.maxRepeats > 1);
}

/**
 * Groups cell counts as asked and turns them into rates with 95% intervals: Wilson when each instance counts once
 * in the row (one cell per sample, one run, one repeat), else a cluster bootstrap over the instances (which must
 * then be given). Grouped by sample, a dataset with several samples also gets a pooled row with the spread of the
 * per-sample rates.
 */
export function breakdown(
  cells: readonly CellCount[],
  samples: ReadonlyMap<string, SampleInfo>,
  instances: readonly InstanceOutcome[] | null,
  filter: Omit<ResultFilter, "experimentId">,
  groupBy: readonly BreakdownGroup[],
  measure: MemorizationMeasure,
): MemorizationBreakdownRow[] {
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
        if (map === perSample) partsOf.set(pooledId, [...(partsOf.get(pooledId) ?? []), group]);
      }
      group.sampleIds.add(cell.sampleId);
      group.cells.push(cell);
    };
    add(pooled, pooledId);
    add(perSample, JSON.stringify([key, cell.sampleId]));
  }

  const instancesByCell = groupItems(instances ?? [], (outcome) =>
    JSON.stringify([outcome.sampleId, outcome.setting, outcome.shots]),
  );

  const totals = (group: Group) => {
    const sumOf = (field: "exact" | "nearExact" | "inexact" | "unjudged") =>
      group.cells.reduce((total, cell) => total + cell[field], 0);
    const [exact, nearExact, inexact, unjudged] = [
      sumOf("exact"),
      sumOf("nearExact"),
      sumOf("inexact"),
      sumOf("unjudged"),
    ];
    const n = exact + nearExact + inexact;
    return { exact, nearExact, inexact, unjudged, n, memorized: memorizedOf(measure, exact, nearExact) };
  };

  const row = (group: Group, sampleRates: number[] | null): MemorizationBreakdownRow => {
    const { exact, nearExact, inexact, unjudged, n, memorized } = totals(group);
    const countsOnce =
      group.cells.length === group.sampleIds.size &&
      group.cells.every((c) => c.runs <= 1 && c.maxRepeats <= 1);
    let interval: Interval | null;
    let intervalMethod: IntervalMethod | null;
    if (countsOnce) {
      interval = wilsonInterval(memorized, n);
      intervalMethod = interval && IntervalMethod.WILSON;
    } else {
      if (!instances) throw new Error("breakdown: this grouping needs instance outcomes");
      const clusters = new Map<string, { successes: number; trials: number }>();
      for (const cell of group.cells) {
        for (const outcome of instancesByCell.get(
          JSON.stringify([cell.sampleId, cell.setting, cell.shots]),
        ) ?? []) {
          const id = `${outcome.sampleId}/${outcome.sampledInstanceId}`;
          const cluster = clusters.get(id) ?? { successes: 0, trials: 0 };
          cluster.successes += memorizedOf(measure, outcome.exact, outcome.nearExact);
          cluster.trials += outcome.judged;
          clusters.set(id, cluster);
        }
      }
      interval = clusterBootstrapRate([...clusters.values()]);
      intervalMethod = interval && IntervalMethod.CLUSTER_BOOTSTRAP;
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

  const rows: MemorizationBreakdownRow[] = [];
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

// ---------------------------------------------------------------------------------------------------------------
// Performance

/**
 * Accuracy per sample x k (and pooled per dataset x k when a dataset has several samples): correct / answered over
 * all repeats with a 95% interval (Wilson with one repeat; a cluster bootstrap over instances with several, since
 * an instance's repeats are not independent), the mean and spread of the repeats' accuracies, and the unparseable
 * and failed counts beside it.
 */
export function performanceRows(
  repeats: readonly RepeatPerformance[],
  instances: readonly InstancePerformance[],
  samples: ReadonlyMap<string, SampleInfo>,
): PerformanceRow[] {
  const cells = groupItems(repeats, (row) => JSON.stringify([row.sampleId, row.shots]));
  const instancesByCell = groupItems(instances, (row) => JSON.stringify([row.sampleId, row.shots]));
  const rows: PerformanceRow[] = [];
  const build = (
    cellRepeats: readonly RepeatPerformance[],
    cellInstances: readonly InstancePerformance[],
    info: SampleInfo | undefined,
    sampleAccuracies: number[] | null,
  ): PerformanceRow => {
    const sampleIds = new Set(cellRepeats.map((row) => row.sampleId));
    const n = sum(cellRepeats.map((row) => row.n));
    const correct = sum(cellRepeats.map((row) => row.correct));
    const answered = cellRepeats.filter((row) => row.n > 0);
    const { mean, standardDeviation } = meanAndSpread(answered.map((row) => row.correct / row.n));
    const repeatCount = Math.max(
      ...[...sampleIds].map((id) => cellRepeats.filter((r) => r.sampleId === id).length),
    );
    const interval =
      repeatCount > 1
        ? clusterBootstrapRate(cellInstances.map((row) => ({ successes: row.correct, trials: row.n })))
        : wilsonInterval(correct, n);
    return {
      dataset: samples.get(cellRepeats[0].sampleId)?.dataset ?? "?",
      ...sampleFields(info),
      shots: cellRepeats[0].shots,
      repeats: repeatCount,
      n,
      correct,
      unparseable: sum(cellRepeats.map((row) => row.unparseable)),
      failed: sum(cellRepeats.map((row) => row.failed)),
      accuracy: n ? correct / n : null,
      ciLow: interval?.low ?? null,
      ciHigh: interval?.high ?? null,
      intervalMethod: interval
        ? repeatCount > 1
          ? IntervalMethod.CLUSTER_BOOTSTRAP
          : IntervalMethod.WILSON
        : null,
      samples: sampleIds.size,
      betweenSampleStandardDeviation:
        sampleAccuracies && sampleAccuracies.length > 1
          ? meanAndSpread(sampleAccuracies).standardDeviation
          : null,
      meanAccuracy: mean,
      accuracyStandardDeviation: standardDeviation,
    };
  };
  for (const [id, cellRepeats] of cells) {
    rows.push(build(cellRepeats, instancesByCell.get(id) ?? [], samples.get(cellRepeats[0].sampleId), null));
  }
  const pooled = groupItems(rows, (row) => JSON.stringify([row.dataset, row.shots]));
  for (const perSampleRows of pooled.values()) {
    if (perSampleRows.length < 2) continue;
    const ids = new Set(perSampleRows.map((row) => row.sampleId));
    const shots = perSampleRows[0].shots;
    rows.push(
      build(
        repeats.filter((row) => ids.has(row.sampleId) && row.shots === shots),
        instances.filter((row) => ids.has(row.sampleId) && row.shots === shots),
        undefined,
        perSampleRows.map((row) => row.accuracy).filter((a): a is number => a !== null),
      ),
    );
  }
  return rows.sort(
    (a, b) =>
      compareNullable(a.dataset, b.dataset) ||
      compareNullable(a.sampleId === null ? null : 0, b.sampleId === null ? null : 0) ||
      bySample(a, b) ||
      a.shots - b.shots,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Memorized vs not

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
  const performanceOf = new Map(
    performance.map((row) => [JSON.stringify([row.sampleId, row.shots, row.sampledInstanceId]), row]),
  );
  const rows: MemorizedVsNotRow[] = [];
  for (const cell of groupItems(outcomes, (row) =>
    JSON.stringify([row.sampleId, row.setting, row.shots]),
  ).values()) {
    const groups = {
      memorized: { instances: 0, n: 0, correct: 0, correctInstances: 0 },
      notMemorized: { instances: 0, n: 0, correct: 0, correctInstances: 0 },
    };
    for (const outcome of cell) {
      const verdict = instanceVerdict(outcome);
      const answered = performanceOf.get(
        JSON.stringify([outcome.sampleId, outcome.shots, outcome.sampledInstanceId]),
      );
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
  return rows.sort(
    (a, b) =>
      bySample(a, b) ||
      SETTING_ORDER.indexOf(a.setting) - SETTING_ORDER.indexOf(b.setting) ||
      a.shots - b.shots,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Correlations

/** Per sample, setting and measure: Pearson and Spearman across k between mean accuracy and memorization rate. */
export function correlations(
  cells: readonly CellCount[],
  performance: readonly PerformanceRow[],
  samples: ReadonlyMap<string, SampleInfo>,
): CorrelationRow[] {
  const rows: CorrelationRow[] = [];
  const accuracyOf = new Map(
    performance
      .filter((row) => row.sampleId !== null)
      .map((row) => [`${row.sampleId}/${row.shots}`, row.meanAccuracy]),
  );
  for (const series of groupItems(cells, (cell) => JSON.stringify([cell.sampleId, cell.setting])).values()) {
    for (const measure of [MemorizationMeasure.EXACT_OR_NEAR_EXACT, MemorizationMeasure.EXACT_ONLY]) {
      const points = series
        .map((cell) => {
          const judged = cell.exact + cell.nearExact + cell.inexact;
          const accuracy = accuracyOf.get(`${cell.sampleId}/${cell.shots}`);
          return judged > 0 && accuracy != null
            ? {
                shots: cell.shots,
                memorization: memorizedOf(measure, cell.exact, cell.nearExact) / judged,
                performance: accuracy,
              }
            : null;
        })
        .filter(
          (point): point is { shots: number; memorization: number; performance: number } => point !== null,
        )
        .sort((a, b) => a.shots - b.shots);
      const xs = points.map((point) => point.performance);
      const ys = points.map((point) => point.memorization);
      const p = pearson(xs, ys);
      const s = spearman(xs, ys);
      const interval = p.r === null ? null : pearsonBootstrapInterval(xs, ys);
      const info = samples.get(series[0].sampleId);
      rows.push({
        dataset: info?.dataset ?? "?",
        ...sampleFields(info),
        setting: series[0].setting,
        measure,
        points,
        n: points.length,
        pearson: p.r,
        pearsonPValue: p.pValue,
        pearsonPValueHolm: null,
        pearsonCiLow: interval?.low ?? null,
        pearsonCiHigh: interval?.high ?? null,
        spearman: s.r,
        spearmanPValue: s.pValue,
        spearmanPValueHolm: null,
        spearmanPValueMethod: s.pValueMethod,
      });
    }
  }
  return rows.sort(
    (a, b) =>
      bySample(a, b) ||
      SETTING_ORDER.indexOf(a.setting) - SETTING_ORDER.indexOf(b.setting) ||
      a.measure.localeCompare(b.measure),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Paired comparisons and transitions

type VerdictMap = Map<string, InstanceVerdict>;

function verdictsByCell(outcomes: readonly InstanceOutcome[]): Map<string, VerdictMap> {
  const cells = new Map<string, VerdictMap>();
  for (const outcome of outcomes) {
    const verdict = instanceVerdict(outcome);
    if (!verdict) continue;
    const id = JSON.stringify([outcome.sampleId, outcome.setting, outcome.shots]);
    const map = cells.get(id) ?? new Map<string, InstanceVerdict>();
    map.set(outcome.sampledInstanceId, verdict);
    cells.set(id, map);
  }
  return cells;
}

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
    pValue: mcnemarExact(onlyA, onlyB),
    pValueHolm: null,
  };
}

interface CellVerdicts {
  sampleId: string;
  setting: MemorizationSetting;
  shots: number;
  verdicts: VerdictMap;
}

function cellList(outcomes: readonly InstanceOutcome[]): CellVerdicts[] {
  return [...verdictsByCell(outcomes)].map(([id, verdicts]) => {
    const [sampleId, setting, shots] = JSON.parse(id) as [string, MemorizationSetting, number];
    return { sampleId, setting, shots, verdicts };
  });
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

/** For every pair of k (from < to) of a sample and setting: near-exact at `from` that are exact at `to`. */
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
        for (const [instance, verdict] of ordered[i].verdicts) {
          const later = ordered[j].verdicts.get(instance);
          if (verdict !== "NEAR_EXACT" || !later) continue;
          nearExact += 1;
          if (later === "EXACT") becameExact += 1;
        }
        const interval = wilsonInterval(becameExact, nearExact);
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
        });
      }
    }
  }
  return rows.sort(
    (a, b) =>
      bySample(a, b) ||
      SETTING_ORDER.indexOf(a.setting) - SETTING_ORDER.indexOf(b.setting) ||
      a.fromShots - b.fromShots ||
      a.toShots - b.toShots,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Contamination

/** Instances the original method looked at: 10. */
export const CONTAMINATION_SUBSET_SIZE = 10;

/**
 * The fixed subset of a sample the contamination rule is applied to: the first 10 of its sampled instances in an
 * order drawn from the sample's seed (the same for every setting, k and run, and for anyone who re-derives it).
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
  return rows.sort(
    (a, b) =>
      bySample(a, b) ||
      SETTING_ORDER.indexOf(a.setting) - SETTING_ORDER.indexOf(b.setting) ||
      a.shots - b.shots,
  );
}

// ---------------------------------------------------------------------------------------------------------------

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

function groupItems<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const id = key(item);
    const group = groups.get(id);
    if (group) group.push(item);
    else groups.set(id, [item]);
  }
  return groups;
}
