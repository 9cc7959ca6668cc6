// ROUGE-L F as Google's rouge_score computes it (the package Time Travel's Algorithm 1 used). Pure.

import { lcsLength } from "./lcs";

/** rouge_score's tokenizer, without a stemmer: lower case, every run of non-alphanumerics a space. */
export function rougeScoreTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(/\s+/)
    .filter((token) => /^[a-z0-9]+$/.test(token));
}

/** ROUGE-L F-measure of a candidate against a reference (0 when either has no token). */
export function rougeLFMeasure(reference: string, candidate: string): number {
  const ref = rougeScoreTokens(reference);
  const cand = rougeScoreTokens(candidate);
  const lcs = lcsLength(ref, cand);
  if (lcs === 0) return 0;
  const precision = lcs / cand.length;
  const recall = lcs / ref.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Time Travel rounds each instance's score to two decimals before the bootstrap. */
export const roundScore = (score: number) => Math.round(score * 100) / 100;
