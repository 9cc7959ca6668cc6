// N-gram coverage (Hallinan et al., CoLM 2025): a model that saw a text continues its prefix with pieces of the true
// continuation; the share of the true continuation that some sample reproduces in runs of n or more words. Pure.

import { NGRAM_N, NGRAM_SAMPLING } from "../study/grid";

/** The authors' sampling (`NGRAM_SAMPLING`: 20 samples at temperature 1.0, top_p 0.95); n-grams of n >= 3 words. */
export const NGRAM_DEFAULTS = {
  samples: NGRAM_SAMPLING.samples,
  temperature: NGRAM_SAMPLING.temperature,
  topP: NGRAM_SAMPLING.topP,
  n: NGRAM_N,
} as const;

/** What one instance's samples cover of its reference continuation. */
export interface NgramInstance {
  /** The largest share of the reference's words one sample covers (the decision's score). */
  maxCoverage: number;
  /** The mean share over the samples. */
  meanCoverage: number;
  samples: number;
  /** The reference's length in words. */
  words: number;
}

/** Lowercased words and numbers: what an n-gram counts in. */
export function ngramWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The share of the reference's words that lie inside some run of n consecutive reference words which the sample
 * also holds, consecutively: every word of a shared n-gram (so of any longer shared run) is covered. 0 for a
 * reference shorter than n.
 */
export function ngramCoverage(reference: readonly string[], sample: readonly string[], n: number): number {
  if (reference.length < n || sample.length < n) return 0;
  const grams = new Set<string>();
  for (let i = 0; i + n <= sample.length; i++) grams.add(sample.slice(i, i + n).join(" "));
  const covered = new Array<boolean>(reference.length).fill(false);
  for (let i = 0; i + n <= reference.length; i++)
    if (grams.has(reference.slice(i, i + n).join(" "))) for (let j = i; j < i + n; j++) covered[j] = true;
  return covered.filter(Boolean).length / reference.length;
}

/** One instance's coverage by its samples' texts; null without samples or reference words. */
export function ngramInstance(
  reference: string,
  samples: readonly string[],
  n: number,
): NgramInstance | null {
  const words = ngramWords(reference);
  if (samples.length === 0 || words.length === 0) return null;
  const coverages = samples.map((sample) => ngramCoverage(words, ngramWords(sample), n));
  return {
    maxCoverage: Math.max(...coverages),
    meanCoverage: coverages.reduce((sum, value) => sum + value, 0) / coverages.length,
    samples: samples.length,
    words: words.length,
  };
}
