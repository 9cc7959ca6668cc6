// N-gram coverage (Hallinan et al., CoLM 2025): a model that saw a text continues its prefix with pieces of the true
// continuation; the share of the true continuation that some sample reproduces in runs of n or more words. Pure.

import { appendTo } from "../common/collections";
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
  return referenceGrams(reference, n).coverage(sample);
}

/**
 * A reference's n-grams, read once for all of its samples: each word gets a number, each n-gram the positions it
 * starts at. A sample's n-gram with a word the reference lacks is skipped before any lookup.
 */
function referenceGrams(
  reference: readonly string[],
  n: number,
): { coverage(sample: readonly string[]): number } {
  const ids = new Map<string, number>();
  const codes = reference.map((word) => {
    let id = ids.get(word);
    if (id === undefined) {
      id = ids.size;
      ids.set(word, id);
    }
    return id;
  });
  // An n-gram's key: its words' numbers as one character each (a reference of more distinct words than a character
  // holds joins them in decimal instead).
  const key =
    ids.size <= 0xffff
      ? (from: readonly number[], at: number) => {
          let text = "";
          for (let j = at; j < at + n; j++) text += String.fromCharCode(from[j]);
          return text;
        }
      : (from: readonly number[], at: number) => from.slice(at, at + n).join(",");
  const starts = new Map<string, number[]>();
  for (let i = 0; i + n <= codes.length; i++) appendTo(starts, key(codes, i), i);
  return {
    coverage(sample) {
      if (reference.length < n || sample.length < n) return 0;
      const sampleCodes = sample.map((word) => ids.get(word) ?? -1);
      const covered = new Uint8Array(reference.length);
      const seen = new Set<string>();
      let known = 0; // how many words up to i are the reference's, in a row
      for (let i = 0; i < sampleCodes.length; i++) {
        known = sampleCodes[i] < 0 ? 0 : known + 1;
        if (known < n) continue;
        const gram = key(sampleCodes, i - n + 1);
        if (seen.has(gram)) continue;
        seen.add(gram);
        for (const start of starts.get(gram) ?? []) covered.fill(1, start, start + n);
      }
      let count = 0;
      for (const flag of covered) count += flag;
      return count / reference.length;
    },
  };
}

/** One instance's coverage by its samples' texts; null without samples or reference words. */
export function ngramInstance(
  reference: string,
  samples: readonly string[],
  n: number,
): NgramInstance | null {
  const words = ngramWords(reference);
  if (samples.length === 0 || words.length === 0) return null;
  const grams = referenceGrams(words, n);
  const coverages = samples.map((sample) => grams.coverage(ngramWords(sample)));
  return {
    maxCoverage: Math.max(...coverages),
    meanCoverage: coverages.reduce((sum, value) => sum + value, 0) / coverages.length,
    samples: samples.length,
    words: words.length,
  };
}
