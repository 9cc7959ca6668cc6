// The replication verdict: one decision per sample, with a stated level, its family and its power. Pure.
//
// Replication (the guided instruction, full information) calls a sample `contaminated` only when, at some k, the
// instances memorized above the no-memory floor among its non-trivial targets are more than a model without memory
// could produce, by a one-sided exact binomial test against a stated allowance, and, where the experiment holds a
// control dataset of the sample's dataset, more than on the control too (one-sided Fisher; both must reject: an
// intersection-union test, level alpha without adjustment). The k values tested form the family: Bonferroni over
// them. A sample whose test could not detect the rates the study is about is `cannot tell`, with the smallest rate
// it would detect.

import { type InstanceFloor, inFloorAt } from "../../judge/no-memory";
import {
  binomialGreater,
  fisherGreater,
  minimumDetectableRate,
  minimumDetectableRateWithControl,
  ruleFalsePositiveRate,
} from "../../statistics/tests";
import { ContaminationVerdict } from "../../study/contamination-verdict";
import { MemorizationSetting } from "../../study/settings";
import { InstanceOutcome, instanceVerdict, isMemorized, outcomeCells, SampleInfo } from "./rows";

/** The level of every verdict. */
export const VERDICT_ALPHA = 0.05;

/**
 * The share of eligible instances (non-trivial, outside the floor) a model without memory may still get judged
 * memorized: routes the floor does not model (a guess from the dataset's regularities, the judge's own errors).
 * The null suite's no-memory models stay below 1% on the shared datasets (docs/METHOD.md).
 */
export const NO_MEMORY_ALLOWANCE = 0.02;

/** The smallest memorization rate a verdict must be able to see (80% power) for "no evidence" to mean something. */
export const RATE_OF_INTEREST = 0.2;

/** The power at which the minimum detectable rate is stated. */
export const VERDICT_POWER = 0.8;

export { ContaminationVerdict };

/** One k's test. */
export interface ReplicationCellTest {
  shots: number;
  /** Judged instances of the cell. */
  instances: number;
  /** Of those, with a trivial target (left out). */
  trivial: number;
  /** Non-trivial ones a no-memory answer matches at this k (left out). */
  floor: number;
  /** Non-trivial, outside the floor: the test's trials. */
  eligible: number;
  /** Eligible and memorized. */
  aboveFloor: number;
  rate: number | null;
  /** One-sided binomial p against the allowance. */
  pValue: number | null;
  /** The control dataset's eligible instances and how many were memorized, at the same setting and k. */
  controlEligible: number | null;
  controlAboveFloor: number | null;
  /** One-sided Fisher p: the sample's eligible rate above the control's. */
  controlPValue: number | null;
}

export interface ReplicationVerdict {
  sampleId: string;
  verdict: ContaminationVerdict;
  alpha: number;
  allowance: number;
  /** How many k values were tested (the Bonferroni family). */
  family: number;
  /** The smallest Bonferroni-adjusted p over the family (each k's p the larger of its two tests). */
  pValue: number | null;
  /** The k whose test gave that p. */
  shots: number | null;
  /**
   * The smallest rate the verdict detects with 80% power: the best k's tests at alpha / family, its control's size
   * included (the pair of tests must both reject); null: no k can reject.
   */
  minimumDetectableRate: number | null;
  cells: ReplicationCellTest[];
  /** One sentence: why this verdict. */
  reason: string;
}

interface Tally {
  instances: number;
  trivial: number;
  floor: number;
  eligible: number;
  aboveFloor: number;
}

function tallyCell(
  outcomes: readonly InstanceOutcome[],
  shots: number,
  floors: ReadonlyMap<string, InstanceFloor>,
  trivial: ReadonlySet<string>,
): Tally {
  const tally: Tally = { instances: 0, trivial: 0, floor: 0, eligible: 0, aboveFloor: 0 };
  for (const outcome of outcomes) {
    const verdict = instanceVerdict(outcome);
    if (!verdict) continue;
    tally.instances += 1;
    if (trivial.has(outcome.sampledInstanceId)) tally.trivial += 1;
    else if (inFloorAt(floors.get(outcome.sampledInstanceId), shots)) tally.floor += 1;
    else {
      tally.eligible += 1;
      if (isMemorized(verdict)) tally.aboveFloor += 1;
    }
  }
  return tally;
}

/**
 * Per sample with full-information (guided instruction) cells: the replication verdict. `trivial` holds the
 * sampled instances whose target is trivial; a sample whose dataset has a control dataset in the experiment
 * (a sample with `controlOf` naming it) is tested against the control's pooled eligible instances too.
 */
export function replicationVerdicts(
  outcomes: readonly InstanceOutcome[],
  floors: ReadonlyMap<string, InstanceFloor>,
  trivial: ReadonlySet<string>,
  samples: ReadonlyMap<string, SampleInfo>,
  alpha = VERDICT_ALPHA,
  allowance = NO_MEMORY_ALLOWANCE,
): Map<string, ReplicationVerdict> {
  const guided = new Map<string, Map<number, InstanceOutcome[]>>();
  for (const cell of outcomeCells(outcomes).values()) {
    if (cell.setting !== MemorizationSetting.FULL_INFORMATION) continue;
    const byShots = guided.get(cell.sampleId) ?? new Map<number, InstanceOutcome[]>();
    byShots.set(cell.shots, cell.outcomes);
    guided.set(cell.sampleId, byShots);
  }
  const controlTally = (dataset: string, shots: number): Tally | null => {
    const controls = [...samples.values()].filter((info) => info.controlOf === dataset);
    if (controls.length === 0) return null;
    const total: Tally = { instances: 0, trivial: 0, floor: 0, eligible: 0, aboveFloor: 0 };
    let found = false;
    for (const control of controls) {
      const cell = guided.get(control.sampleId)?.get(shots);
      if (!cell) continue;
      found = true;
      const tally = tallyCell(cell, shots, floors, trivial);
      for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += tally[key];
    }
    return found ? total : null;
  };

  const verdicts = new Map<string, ReplicationVerdict>();
  for (const [sampleId, byShots] of guided) {
    const info = samples.get(sampleId);
    const cells: ReplicationCellTest[] = [...byShots.entries()]
      .sort(([a], [b]) => a - b)
      .map(([shots, cellOutcomes]) => {
        const tally = tallyCell(cellOutcomes, shots, floors, trivial);
        const control = info && !info.controlOf ? controlTally(info.dataset, shots) : null;
        return {
          shots,
          instances: tally.instances,
          trivial: tally.trivial,
          floor: tally.floor,
          eligible: tally.eligible,
          aboveFloor: tally.aboveFloor,
          rate: tally.eligible ? tally.aboveFloor / tally.eligible : null,
          pValue: binomialGreater(tally.aboveFloor, tally.eligible, allowance),
          controlEligible: control?.eligible ?? null,
          controlAboveFloor: control?.aboveFloor ?? null,
          controlPValue: control
            ? fisherGreater(
                tally.aboveFloor,
                tally.eligible - tally.aboveFloor,
                control.aboveFloor,
                control.eligible - control.aboveFloor,
              )
            : null,
        };
      });
    const tested = cells.filter((cell) => cell.pValue !== null);
    const family = tested.length;
    // A cell whose control comparison cannot be made (an empty table) is not evidence above the control.
    const cellP = (cell: ReplicationCellTest) =>
      cell.controlEligible === null ? cell.pValue! : Math.max(cell.pValue!, cell.controlPValue ?? 1);
    let best: ReplicationCellTest | null = null;
    for (const cell of tested) if (!best || cellP(cell) < cellP(best)) best = cell;
    const pValue = best ? Math.min(1, cellP(best) * family) : null;
    const largest = Math.max(0, ...tested.map((cell) => cell.eligible));
    // Each k's pair of tests at alpha / family; the family detects at least what its best k does.
    let mdr: number | null = null;
    let mdrCell: ReplicationCellTest | null = null;
    for (const cell of tested) {
      const rate = cellDetectableRate(cell, allowance, alpha / family);
      if (rate !== null && (mdr === null || rate < mdr)) {
        mdr = rate;
        mdrCell = cell;
      }
    }
    const controlled = tested.filter((cell) => cell.controlEligible !== null);
    const controlSize = controlled.length
      ? Math.max(...controlled.map((cell) => cell.controlEligible!))
      : null;
    const againstControl =
      controlSize === null
        ? ""
        : `, against a control of ${controlSize} eligible instance${controlSize === 1 ? "" : "s"}` +
          (mdrCell && mdrCell.controlEligible !== null && mdrCell.controlEligible !== controlSize
            ? ` (${mdrCell.controlEligible} at k=${mdrCell.shots})`
            : "");
    let verdict: ContaminationVerdict;
    let reason: string;
    const level = `alpha ${alpha}, Bonferroni over ${family} k value${family === 1 ? "" : "s"}`;
    if (pValue !== null && pValue <= alpha) {
      verdict = ContaminationVerdict.CONTAMINATED;
      reason =
        `at k=${best!.shots}, ${best!.aboveFloor} of ${best!.eligible} non-trivial instances outside the ` +
        `no-memory floor were replicated, more than a ${pct(allowance)} no-memory allowance` +
        (best!.controlEligible !== null ? " and than the control dataset" : "") +
        ` (p ${fmtP(pValue)}, ${level})`;
    } else if (mdr === null || mdr > RATE_OF_INTEREST) {
      verdict = ContaminationVerdict.CANNOT_TELL;
      const alone = family ? minimumDetectableRate(largest, allowance, alpha / family, VERDICT_POWER) : null;
      const tooFew =
        controlSize !== null && alone !== null && alone <= RATE_OF_INTEREST
          ? `the control dataset has too few non-trivial instances outside the floor (${controlSize}) for the ` +
            `sample's ${largest} to show a rate of ${pct(RATE_OF_INTEREST)} above it`
          : `too few non-trivial instances outside the floor (at most ${largest} per k${againstControl}) to detect a ` +
            `rate of ${pct(RATE_OF_INTEREST)}`;
      reason =
        `${tooFew}: ` +
        (mdr === null ? "no count could reject" : `the tests need ${pct(mdr)} for 80% power`) +
        ` (${level})`;
    } else {
      verdict = ContaminationVerdict.NO_EVIDENCE;
      reason =
        `no k shows replication above the no-memory floor and a ${pct(allowance)} allowance` +
        (cells.some((cell) => cell.controlEligible !== null) ? " and above the control" : "") +
        ` (smallest p ${fmtP(pValue)}, ${level}); a true rate of ${pct(mdr)} or more would be found 80% of the ` +
        `time${againstControl}`;
    }
    verdicts.set(sampleId, {
      sampleId,
      verdict,
      alpha,
      allowance,
      family,
      pValue,
      shots: best?.shots ?? null,
      minimumDetectableRate: mdr,
      cells,
      reason,
    });
  }
  return verdicts;
}

/**
 * The smallest rate one k's tests detect with 80% power at `alpha`: the binomial test alone, or, against a control,
 * the pair (the control's rate taken as observed, and at least the allowance a model without memory may reach).
 */
function cellDetectableRate(cell: ReplicationCellTest, allowance: number, alpha: number): number | null {
  if (cell.controlEligible === null)
    return minimumDetectableRate(cell.eligible, allowance, alpha, VERDICT_POWER);
  // An empty control: the comparison cannot be made, so this k cannot reject.
  if (cell.controlEligible === 0) return null;
  const controlRate = cell.controlEligible ? (cell.controlAboveFloor ?? 0) / cell.controlEligible : 0;
  return minimumDetectableRateWithControl(
    cell.eligible,
    cell.controlEligible,
    allowance,
    Math.max(allowance, controlRate),
    alpha,
    VERDICT_POWER,
  );
}

/**
 * The false-positive rate of Time Travel's rule (>= 1 exact or >= 2 near-exact among 10) for a model with no
 * memory, on the instances the subset is drawn from: those a no-memory answer gets exact and near-exact at k.
 */
export function timeTravelFalsePositiveRate(
  subsetPool: readonly string[],
  floors: ReadonlyMap<string, InstanceFloor>,
  shots: number,
  draws: number,
): number | null {
  let exact = 0;
  let near = 0;
  for (const id of subsetPool) {
    const floor = floors.get(id);
    if (!inFloorAt(floor, shots)) continue;
    // A demonstration's continuation may be exact: count it so (an upper bound).
    if (floor!.exact || !floor!.memorized) exact += 1;
    else near += 1;
  }
  return ruleFalsePositiveRate(subsetPool.length, exact, near, draws);
}

/** A rate in a sentence: one decimal under 10%, none above ("5.8%", "20%"). */
export const shortPercent = (value: number) => `${(value * 100).toFixed(value < 0.1 ? 1 : 0)}%`;
const pct = shortPercent;
const fmtP = (value: number | null) =>
  value === null
    ? "n/a"
    : value === 0
      ? "< 0.0001"
      : value < 0.0001
        ? value.toExponential(1)
        : value.toFixed(4);
