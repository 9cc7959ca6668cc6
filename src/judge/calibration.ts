import { Agreement, agreement } from "./agreement";
import { GoldPair } from "./gold-file";
import { HeuristicThresholds, verdictFromScores } from "./heuristic-judge";
import { SimilarityScores, similarityScores } from "./similarity";
import { JudgeVerdict } from "./verdicts";

const GRID = {
  rougeL: [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.78, 0.8, 0.85, 0.9, 1.01],
  containedReferenceMinTokens: [3, 5, 8, 10, 15, 1_000_000],
  charSimilarity: [0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.01],
};

/** Every combination, strictest first, so that ties go to the stricter rule (fewer false near-exacts). */
function candidates(): HeuristicThresholds[] {
  const all: HeuristicThresholds[] = [];
  for (const rougeL of GRID.rougeL)
    for (const containedReferenceMinTokens of GRID.containedReferenceMinTokens)
      for (const charSimilarity of GRID.charSimilarity)
        all.push({ rougeL, containedReferenceMinTokens, charSimilarity });
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
function fitThresholds(pairs: readonly ScoredPair[]): {
  thresholds: HeuristicThresholds;
  agreement: Agreement;
} {
  let best: { thresholds: HeuristicThresholds; agreement: Agreement } | null = null;
  for (const thresholds of candidates()) {
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
  /** Fitted on every pair: what to configure. Its in-sample agreement is optimistic by construction. */
  fitted: { thresholds: HeuristicThresholds; agreement: Agreement };
  /** Each group held out in turn: thresholds fitted on the others, judged on it. */
  folds: { heldOut: string; n: number; thresholds: HeuristicThresholds }[];
  /** Agreement of the held-out predictions pooled over all folds: the figure to report. */
  heldOut: Agreement;
}

/** Leave-one-group-out cross-validation (groups = the gold file's `dataset` column). */
export function calibrate(goldPairs: readonly GoldPair[]): CalibrationReport {
  const pairs = goldPairs.map((pair) => ({
    ...pair,
    scores: similarityScores(pair.reference, pair.candidate),
  }));
  const groups = [...new Set(pairs.map((pair) => pair.group))].sort();
  const folds: CalibrationReport["folds"] = [];
  const predictions: [JudgeVerdict, JudgeVerdict][] = [];
  for (const group of groups) {
    const train = pairs.filter((pair) => pair.group !== group);
    const test = pairs.filter((pair) => pair.group === group);
    if (train.length === 0) continue;
    const { thresholds } = fitThresholds(train);
    folds.push({ heldOut: group, n: test.length, thresholds });
    predictions.push(...judgeAll(test, thresholds));
  }
  return { fitted: fitThresholds(pairs), folds, heldOut: agreement(predictions) };
}
