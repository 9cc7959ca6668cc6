import type { ReportQuery } from "../generated/operations";

/** The study report reshaped for the figures (pure): which rows each figure plots, and their CSV. */

export const SETTING_LABELS: Record<string, string> = {
  FULL_INFORMATION: "Setting 1: full information",
  SEGMENT_PAIRS_AND_LABELS: "Setting 2: segment pairs + labels",
  ONLY_SEGMENT_PAIRS: "Setting 3: segment pairs only",
  GENERAL_INSTRUCTION: "Control: general instruction",
};
export const SETTING_SHORT: Record<string, string> = {
  FULL_INFORMATION: "S1",
  SEGMENT_PAIRS_AND_LABELS: "S2",
  ONLY_SEGMENT_PAIRS: "S3",
  GENERAL_INSTRUCTION: "GI",
};
export const SETTINGS = Object.keys(SETTING_LABELS);

/** Setting labels in the study's order (settings 1-3, the control last), as every page shows them. */
export function inSettingOrder(labels: Iterable<string>): string[] {
  const present = new Set(labels);
  const known = SETTINGS.map((setting) => SETTING_LABELS[setting]);
  return [
    ...known.filter((label) => present.has(label)),
    ...[...present].filter((label) => !known.includes(label)),
  ];
}

/** Okabe & Ito's colour-blind-safe palette (shapes and labels carry the same information). */
export const PALETTE = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#CC79A7",
  "#56B4E9",
  "#D55E00",
  "#F0E442",
  "#000000",
];

interface Scoped {
  dataset: string | null;
  sampleId: string | null;
}

/** Per dataset: its pooled rows when it has several samples, else its one sample's rows. */
export function headline<T extends Scoped>(rows: T[], dataset: string): T[] {
  const own = rows.filter((row) => row.dataset === dataset);
  const pooled = own.filter((row) => row.sampleId === null);
  return pooled.length > 0 ? pooled : own;
}

export function datasetsOf(report: Report): string[] {
  return [
    ...new Set(
      [...report.memorization, ...report.performance].map((row) => row.dataset).filter((d) => d !== null),
    ),
  ].sort() as string[];
}

/** The report's tables as the dashboard reads them (web/src/operations.graphql, typed from the schema). */
export type Report = ReportQuery["studyReport"];
export type RateRow = Report["memorization"][number];
export type PerformanceRow = Report["performance"][number];
export type MemorizedVsNotRow = Report["memorizedVsNotMemorized"][number];
export type Group = MemorizedVsNotRow["memorized"];
export type TransitionRateRow = Report["transitionRates"][number];
export type CorrelationRow = Report["correlations"][number];

export const MEASURE_LABELS = { both: "exact + near-exact", exact: "exact only" } as const;

/** Per setting and k, over the dataset's samples: the no-memory floor, memorized above it, and the eligible rate. */
function floorsBySettingAndShots(report: Report, dataset: string) {
  const cells = new Map<
    string,
    { instances: number; floor: number; above: number; eligible: number; eligibleMemorized: number }
  >();
  for (const row of report.noMemoryFloor.filter((floor) => floor.dataset === dataset)) {
    const key = `${row.setting}|${row.shots}`;
    const cell = cells.get(key) ?? { instances: 0, floor: 0, above: 0, eligible: 0, eligibleMemorized: 0 };
    cell.instances += row.instances;
    cell.floor += row.floorInstances;
    cell.above += row.aboveFloor;
    cell.eligible += row.eligibleInstances;
    cell.eligibleMemorized += row.eligibleMemorized;
    cells.set(key, cell);
  }
  return cells;
}

const share = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : "-");

/**
 * Memorization rate vs k: one point per setting and k, for both measures, each with what qualifies its rate (the
 * no-memory floor, the rate above it, and the rate over non-trivial targets outside the floor) for its tip.
 */
export function memorizationPoints(report: Report, dataset: string) {
  const floors = floorsBySettingAndShots(report, dataset);
  return [
    ...headline(report.memorization, dataset).map((row) => ({ ...row, measure: MEASURE_LABELS.both })),
    ...headline(report.memorizationExactOnly, dataset).map((row) => ({
      ...row,
      measure: MEASURE_LABELS.exact,
    })),
  ]
    .filter((row) => row.rate !== null)
    .map((row) => ({
      measure: row.measure,
      setting: SETTING_LABELS[row.setting ?? ""] ?? row.setting,
      label: SETTING_SHORT[row.setting ?? ""] ?? row.setting,
      shots: row.shots,
      rate: row.rate as number,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
      memorized: row.memorized,
      n: row.n,
      sampleSeed: row.sampleSeed,
      ...qualifiers(floors.get(`${row.setting}|${row.shots}`)),
    }));
}

/** What a tip says beside a rate: the floor, above it, and the eligible rate ("-" where none was computed). */
function qualifiers(
  cell: ReturnType<typeof floorsBySettingAndShots> extends Map<string, infer V> ? V | undefined : never,
) {
  return {
    floor: cell ? share(cell.floor, cell.instances) : "-",
    aboveFloor: cell ? share(cell.above, cell.instances) : "-",
    nonTrivialOutsideFloor: cell ? share(cell.eligibleMemorized, cell.eligible) : "-",
  };
}

/**
 * The no-memory floor vs k (a control): the share of judged instances an answer without memory gets exact or
 * near-exact, over the dataset's samples and settings at each k.
 */
export function floorPoints(report: Report, dataset: string) {
  const byShots = new Map<number, { floor: number; instances: number }>();
  for (const row of report.noMemoryFloor.filter((floor) => floor.dataset === dataset)) {
    const entry = byShots.get(row.shots) ?? { floor: 0, instances: 0 };
    entry.floor += row.floorInstances;
    entry.instances += row.instances;
    byShots.set(row.shots, entry);
  }
  return [...byShots]
    .filter(([, entry]) => entry.instances > 0)
    .sort(([a], [b]) => a - b)
    .map(([shots, entry]) => ({
      measure: MEASURE_LABELS.both,
      shots,
      rate: entry.floor / entry.instances,
      label: "floor",
    }));
}

/** Performance vs k: the mean over repeats with its standard deviation, and the pooled accuracy's interval. */
export function performancePoints(report: Report, dataset: string) {
  return headline(report.performance, dataset)
    .filter((row) => row.meanAccuracy !== null || row.accuracy !== null)
    .map((row) => {
      const mean = (row.meanAccuracy ?? row.accuracy) as number;
      const sd = row.accuracyStandardDeviation;
      return {
        shots: row.shots,
        meanAccuracy: mean,
        sdLow: sd === null ? null : Math.max(0, mean - sd),
        sdHigh: sd === null ? null : Math.min(1, mean + sd),
        accuracy: row.accuracy,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
        repeats: row.repeats,
        n: row.n,
      };
    });
}

/** Accuracy on memorized vs not memorized instances: two points per setting and k. */
export function memorizedVsNotPoints(report: Report, dataset: string) {
  return headline(report.memorizedVsNotMemorized, dataset).flatMap((row) =>
    (
      [
        ["memorized", row.memorized],
        ["not memorized", row.notMemorized],
      ] as const
    )
      .filter(([, group]) => group.accuracy !== null)
      .map(([group, values]) => ({
        setting: SETTING_LABELS[row.setting] ?? row.setting,
        shots: row.shots,
        group,
        accuracy: values.accuracy as number,
        instances: values.instances,
        n: values.n,
        difference: row.difference,
        differenceCiLow: row.differenceCiLow,
        differenceCiHigh: row.differenceCiHigh,
        pValueHolm: row.pValueHolm,
      })),
  );
}

/** Near-exact -> exact transition rates: one cell per setting and pair of k. */
export function transitionCells(report: Report, dataset: string) {
  return headline(report.transitionRates, dataset).map((row) => ({
    setting: SETTING_LABELS[row.setting] ?? row.setting,
    from: `k=${row.fromShots}`,
    to: `k=${row.toShots}`,
    fromShots: row.fromShots,
    toShots: row.toShots,
    rate: row.rate,
    nearExact: row.nearExact,
    becameExact: row.becameExact,
    text: row.nearExact === 0 ? "–" : `${row.becameExact}/${row.nearExact}`,
  }));
}

export function correlationRows(report: Report, dataset: string) {
  return headline(report.correlations, dataset).map((row) => ({
    setting: SETTING_LABELS[row.setting] ?? row.setting,
    measure: row.measure === "EXACT_ONLY" ? MEASURE_LABELS.exact : MEASURE_LABELS.both,
    points: row.n,
    pearson: row.pearson,
    pearsonCiLow: row.pearsonCiLow,
    pearsonCiHigh: row.pearsonCiHigh,
    pearsonPHolm: row.pearsonPValueHolm,
    spearman: row.spearman,
    spearmanPHolm: row.spearmanPValueHolm,
  }));
}
