// The rows the analyses read (what report.sql.ts returns) and the helpers every table shares. Pure.

import { MemorizationSetting, SETTING_ORDER } from "../../study/settings";

export interface SampleInfo {
  sampleId: string;
  sampleName: string | null;
  sampleSeed: string;
  dataset: string;
  /** The dataset this sample's dataset is the control of (no memory of it expected), if any. */
  controlOf?: string | null;
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
  /** Of the near-exact and inexact verdicts, those that rest on a span the heuristic judge cannot class. */
  unsureNearExact: number;
  unsureInexact: number;
}

/** One instance's judged completions in one memorization cell. */
export interface InstanceOutcome {
  sampleId: string;
  setting: MemorizationSetting;
  shots: number;
  sampledInstanceId: string;
  /** The dataset instance: two samples may draw the same one, and a pooled figure counts it once. */
  instanceId?: string;
  judged: number;
  exact: number;
  nearExact: number;
}

/**
 * A memorization cell's key (sample x setting x k) for a Map: ids, a setting and a number, none of which holds the
 * separator. (JSON.stringify of the three, as the analyses built their keys before, was a fifth of computing a
 * report: a key per instance outcome, several times over.)
 */
export const cellKey = (sampleId: string, setting: string, shots: number) =>
  `${sampleId}\u001f${setting}\u001f${shots}`;

/** One memorization cell's instance outcomes. */
export interface OutcomeCell {
  sampleId: string;
  setting: MemorizationSetting;
  shots: number;
  outcomes: InstanceOutcome[];
}

const groupedOutcomes = new WeakMap<
  readonly InstanceOutcome[],
  { length: number; cells: ReadonlyMap<string, OutcomeCell> }
>();

/**
 * The outcomes grouped by cell (keyed by `cellKey`, in the order first seen). Grouped once per array and kept
 * with it (a WeakMap): the report's tables all read one array of outcomes. The arrays are read-only once read
 * from the database; one that has grown since is grouped again.
 */
export function outcomeCells(outcomes: readonly InstanceOutcome[]): ReadonlyMap<string, OutcomeCell> {
  const known = groupedOutcomes.get(outcomes);
  if (known && known.length === outcomes.length) return known.cells;
  const cells = new Map<string, OutcomeCell>();
  for (const outcome of outcomes) {
    const key = cellKey(outcome.sampleId, outcome.setting, outcome.shots);
    const cell = cells.get(key);
    if (cell) cell.outcomes.push(outcome);
    else
      cells.set(key, {
        sampleId: outcome.sampleId,
        setting: outcome.setting,
        shots: outcome.shots,
        outcomes: [outcome],
      });
  }
  groupedOutcomes.set(outcomes, { length: outcomes.length, cells });
  return cells;
}

/** What identifies an instance across samples: its dataset instance, else its sampled instance. */
export const instanceKeyOf = (
  outcome: Pick<InstanceOutcome, "sampleId" | "sampledInstanceId" | "instanceId">,
) => outcome.instanceId ?? `${outcome.sampleId}/${outcome.sampledInstanceId}`;

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

export const isMemorized = (verdict: InstanceVerdict | null) =>
  verdict === "EXACT" || verdict === "NEAR_EXACT";

export function sampleFields(info: SampleInfo | undefined) {
  return {
    sampleId: info?.sampleId ?? null,
    sampleName: info?.sampleName ?? null,
    sampleSeed: info?.sampleSeed ?? null,
  };
}

export function compareNullable(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1; // pooled rows after the per-sample ones
  if (b === null) return -1;
  return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
}

export interface SampleOrdered {
  dataset: string | null;
  sampleSeed: string | null;
  sampleId: string | null;
}

export function bySample(a: SampleOrdered, b: SampleOrdered): number {
  return (
    compareNullable(a.dataset, b.dataset) ||
    compareNullable(
      a.sampleSeed === null ? null : Number(a.sampleSeed),
      b.sampleSeed === null ? null : Number(b.sampleSeed),
    ) ||
    compareNullable(a.sampleId, b.sampleId)
  );
}

/** The study's order of settings. */
export function bySetting(a: { setting: MemorizationSetting }, b: { setting: MemorizationSetting }): number {
  return SETTING_ORDER.indexOf(a.setting) - SETTING_ORDER.indexOf(b.setting);
}

/** A cell's rows in the report's order: sample, setting (the study's order), k. */
export function byCell(
  a: SampleOrdered & { setting: MemorizationSetting; shots: number },
  b: SampleOrdered & { setting: MemorizationSetting; shots: number },
): number {
  return bySample(a, b) || bySetting(a, b) || a.shots - b.shots;
}

export const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

export function groupItems<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const id = key(item);
    const group = groups.get(id);
    if (group) group.push(item);
    else groups.set(id, [item]);
  }
  return groups;
}
