import { RandomStream } from "../../common/random";

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
}

export type Segmentation = { ok: true; segments: Segments } | { ok: false; reason: string };

const TOKEN = /\S+/g;

/** Whitespace-separated tokens with their offsets in the text. */
function tokenOffsets(text: string): number[] {
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
 * Whitespace inside each segment is kept as written; the whitespace at the cut is dropped.
 */
export function segmentInstance(
  text: string,
  secondText: string | null,
  options: { seed: number | string; instanceKey: string; cutRange: CutRange },
): Segmentation {
  if (secondText !== null) {
    return {
      ok: true,
      segments: {
        initialSegment: text,
        subsequentSegment: secondText,
        cutTokenIndex: null,
        tokenCount: countTokens(text) + countTokens(secondText),
      },
    };
  }
  const offsets = tokenOffsets(text);
  const cuts = allowedCuts(offsets.length, options.cutRange);
  if (!cuts) return { ok: false, reason: cutProblem(offsets.length, options.cutRange)! };
  const cut = RandomStream.derive(options.seed, "cut", options.instanceKey).integer(cuts.from, cuts.to);
  return {
    ok: true,
    segments: {
      initialSegment: text.slice(0, offsets[cut]).trimEnd(),
      subsequentSegment: text.slice(offsets[cut]).trimEnd(),
      cutTokenIndex: cut,
      tokenCount: offsets.length,
    },
  };
}
