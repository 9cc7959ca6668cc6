import { RandomStream } from "../../common/random";
import { targetWords } from "../../study/targets";

export interface CutRange {
  /** Smallest share of the tokens in the initial segment, e.g. 0.6. */
  min: number;
  /** Largest share, e.g. 0.8. */
  max: number;
}

export const DEFAULT_CUT_RANGE: CutRange = { min: 0.6, max: 0.8 };

export interface Segments {
  initialSegment: string;
  subsequentSegment: string;
  /** Whitespace tokens in the initial segment; null for NLI, where the texts are the segments. */
  cutTokenIndex: number | null;
  /** Whitespace tokens in the whole instance (both texts for NLI). */
  tokenCount: number;
  /**
   * With `minTargetWords`: no cut in range (or, for NLI, the second text itself) gives a subsequent segment of
   * that many words, so the reference stays trivial.
   */
  shortTarget?: boolean;
}

export type Segmentation = { ok: true; segments: Segments } | { ok: false; reason: string };

const TOKEN = /\S+/g;

/** Whitespace-separated tokens with their offsets in the text. */
export function tokenOffsets(text: string): number[] {
  return [...text.matchAll(TOKEN)].map((match) => match.index);
}

export function countTokens(text: string): number {
  return text.match(TOKEN)?.length ?? 0;
}

/**
 * The cut positions allowed for a text of `tokenCount` tokens: between `min` and `max` of the tokens
 * (rounded inwards), and at least one token on each side. Empty when the text is too short.
 */
export function allowedCuts(tokenCount: number, range: CutRange): { from: number; to: number } | null {
  const from = Math.max(1, Math.ceil(tokenCount * range.min - 1e-9));
  const to = Math.min(tokenCount - 1, Math.floor(tokenCount * range.max + 1e-9));
  return from <= to ? { from, to } : null;
}

/** Why a text of `tokenCount` tokens cannot be cut, or null when it can. */
export function cutProblem(tokenCount: number, range: CutRange): string | null {
  if (allowedCuts(tokenCount, range)) return null;
  return `too short to cut: ${tokenCount} token(s), no cut between ${range.min * 100}% and ${range.max * 100}% leaves a token on each side`;
}

/**
 * Splits an instance into the initial and subsequent segment.
 * NLI: the first text, then the second. One text: cut at a random whitespace token drawn from
 * `allowedCuts`, from a stream derived from the seed and the instance's key (so each instance has its own cut).
 * With `minTargetWords` (design version 3), the cut is drawn from the cuts in range whose subsequent segment has
 * at least that many words (lower case, punctuation dropped), when there are any; otherwise from the whole
 * range, and the segments say `shortTarget`. Whitespace inside each segment is kept as written; the whitespace
 * at the cut is dropped.
 */
export function segmentInstance(
  text: string,
  secondText: string | null,
  options: { seed: number | string; instanceKey: string; cutRange: CutRange; minTargetWords?: number },
): Segmentation {
  const minWords = options.minTargetWords;
  if (secondText !== null) {
    return {
      ok: true,
      segments: {
        initialSegment: text,
        subsequentSegment: secondText,
        cutTokenIndex: null,
        tokenCount: countTokens(text) + countTokens(secondText),
        ...(minWords !== undefined ? { shortTarget: targetWords(secondText).length < minWords } : {}),
      },
    };
  }
  const offsets = tokenOffsets(text);
  const cuts = allowedCuts(offsets.length, options.cutRange);
  if (!cuts) return { ok: false, reason: cutProblem(offsets.length, options.cutRange)! };
  const stream = RandomStream.derive(options.seed, "cut", options.instanceKey);
  let cut: number;
  let shortTarget: boolean | undefined;
  if (minWords === undefined) cut = stream.integer(cuts.from, cuts.to);
  else {
    // The words after a cut only fall as the cut moves right (a cut drops whole words): the cuts that leave
    // enough are a prefix of the range, found by bisection (a text of 5,000 words in milliseconds, not minutes).
    const enough = (at: number) => targetWords(text.slice(offsets[at])).length >= minWords;
    let low = cuts.from;
    let high = cuts.to + 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (enough(mid)) low = mid + 1;
      else high = mid;
    }
    const long = Array.from({ length: low - cuts.from }, (_, i) => cuts.from + i);
    shortTarget = long.length === 0;
    cut = shortTarget ? stream.integer(cuts.from, cuts.to) : long[stream.integer(0, long.length - 1)];
  }
  return {
    ok: true,
    segments: {
      initialSegment: text.slice(0, offsets[cut]).trimEnd(),
      subsequentSegment: text.slice(offsets[cut]).trimEnd(),
      cutTokenIndex: cut,
      tokenCount: offsets.length,
      ...(shortTarget !== undefined ? { shortTarget } : {}),
    },
  };
}
