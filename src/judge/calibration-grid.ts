// What calibration tries and fits, apart from the judge itself: the CLI's help reads it without loading the judge.

import type { HeuristicThresholds } from "./heuristic-judge";

/** The values calibration tries for each threshold, ascending (the last one switches the test off). */
export const CALIBRATION_GRID: Record<keyof HeuristicThresholds, readonly number[]> = {
  rougeL: [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.78, 0.8, 0.85, 0.9, 1.01],
  containedReferenceMinTokens: [3, 5, 8, 10, 15, 1_000_000],
  charSimilarity: [0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.01],
  contentPrecision: [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1.01],
  contentRecall: [0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1.01],
};

export const THRESHOLD_NAMES = Object.keys(CALIBRATION_GRID) as (keyof HeuristicThresholds)[];

/**
 * What `memicl calibrate-judge` fits unless told otherwise: the two content-word thresholds. ROUGE-L and
 * containment stay at their defaults: fitted on a dozen near-exact pairs, an overlap threshold follows whichever
 * dataset is in the training data (without WNLI, ROUGE-L 0.55 wins and calls WNLI's wrong-entity sentences
 * near-exact), and held out that loses more than it gains (docs/JUDGING.md has the figures).
 */
export const DEFAULT_FITTED: readonly (keyof HeuristicThresholds)[] = ["contentPrecision", "contentRecall"];
