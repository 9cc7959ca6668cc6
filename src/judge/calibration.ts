import { Agreement, agreement } from "./agreement";
import { CALIBRATION_GRID, DEFAULT_FITTED, THRESHOLD_NAMES } from "./calibration-grid";
import { GoldPair } from "./gold-file";
import {
  defaultThresholds,
  HEURISTIC_JUDGE_VERSION,
  HeuristicJudgeVersion,
  HeuristicThresholds,
  scoresFor,
  verdictFromScores,
} from "./heuristic-judge";
import { SimilarityScores } from "./similarity";
import { JudgeVerdict } from "./verdicts";

export { CALIBRATION_GRID, DEFAULT_FITTED, THRESHOLD_NAMES };

/** Every combination of the fitted thresholds (the rest at `base`), strictest first, so ties go to the stricter rule. */
function candidates(
  fitted: readonly (keyof HeuristicThresholds)[],
  base: HeuristicThresholds,
): HeuristicThresholds[] {
  let all: HeuristicThresholds[] = [{ ...base }];
  for (const name of fitted)
    all = all.flatMap((partial) => CALIBRATION_GRID[name].map((value) => ({ ...partial, [name]: value })));
  return all.reverse();
}

type ScoredPair = GoldPair & { scores: SimilarityScores };

function judgeAll(
  pairs: readonly ScoredPair[],
  thresholds: HeuristicThresholds,
): [JudgeVerdict, JudgeVerdict][] {
  return pairs.map((pair) => [pair.human, verdictFromScores(pair.scores, thresholds)]);
}

/** The thresholds with the best binary kappa on `pairs`, then the best accuracy, then the strictest. */
function fitThresholds(
  pairs: readonly ScoredPair[],
  grid: readonly HeuristicThresholds[],
): { thresholds: HeuristicThresholds; agreement: Agreement } {
  let best: { thresholds: HeuristicThresholds; agreement: Agreement } | null = null;
  for (const thresholds of grid) {
    const result = agreement(judgeAll(pairs, thresholds));
    const better =
      !best ||
      result.kappaBinary > best.agreement.kappaBinary + 1e-12 ||
      (Math.abs(result.kappaBinary - best.agreement.kappaBinary) <= 1e-12 &&
        result.percentAgreement > best.agreement.percentAgreement + 1e-12);
    if (better) best = { thresholds, agreement: result };
  }
  return best!;
}

export interface CalibrationReport {
  version: HeuristicJudgeVersion;
  /** The thresholds that were fitted; the others stayed at their defaults. */
  fittedNames: readonly (keyof HeuristicThresholds)[];
  /** Fitted on every pair: what to configure. Its in-sample agreement is optimistic by construction. */
  fitted: { thresholds: HeuristicThresholds; agreement: Agreement };
  /** Each group held out in turn: thresholds fitted on the others, judged on it. */
  folds: { heldOut: string; n: number; thresholds: HeuristicThresholds }[];
  /** Agreement of the held-out predictions pooled over all folds: the figure to report. */
  heldOut: Agreement;
}

/** Leave-one-group-out cross-validation (groups = the gold file's `dataset` column) of the fitting procedure. */
export function calibrate(
  goldPairs: readonly GoldPair[],
  fitted: readonly (keyof HeuristicThresholds)[] = DEFAULT_FITTED,
  version: HeuristicJudgeVersion = HEURISTIC_JUDGE_VERSION,
): CalibrationReport {
  const grid = candidates(fitted, defaultThresholds(version));
  const pairs = goldPairs.map((pair) => ({
    ...pair,
    scores: scoresFor(pair.reference, pair.candidate, version, {
      firstPiece: pair.firstPiece,
      nli: pair.nli,
    }),
  }));
  const groups = [...new Set(pairs.map((pair) => pair.group))].sort();
  const folds: CalibrationReport["folds"] = [];
  const predictions: [JudgeVerdict, JudgeVerdict][] = [];
  for (const group of groups) {
    const train = pairs.filter((pair) => pair.group !== group);
    const test = pairs.filter((pair) => pair.group === group);
    if (train.length === 0) continue;
    const { thresholds } = fitThresholds(train, grid);
    folds.push({ heldOut: group, n: test.length, thresholds });
    predictions.push(...judgeAll(test, thresholds));
  }
  return {
    version,
    fittedNames: fitted,
    fitted: fitThresholds(pairs, grid),
    folds,
    heldOut: agreement(predictions),
  };
}
