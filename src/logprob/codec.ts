import type { TokenLogprobs } from "./scores";

// CoDeC (Zawalski et al., ICLR 2026): how an instance's log-likelihood moves when another instance of the same
// dataset stands before it in the prompt. Pure.

/** What separates the context instance from the scored one in the in-context prompt: a blank line. */
export const CODEC_SEPARATOR = "\n\n";

/**
 * The position of the instance whose text is the context of the instance at `position`: the next one in the
 * sample's order, the last taking the first, so every instance is scored once and is the context once, and the
 * pairs follow the sample's random draw, not the texts. Null when the sample has no other instance.
 */
export function contextPositionOf(position: number, positions: readonly number[]): number | null {
  const sorted = [...new Set(positions)].sort((a, b) => a - b);
  const at = sorted.indexOf(position);
  if (at < 0 || sorted.length < 2) return null;
  return sorted[(at + 1) % sorted.length];
}

/** One instance's confidence without and with context: mean log-likelihoods per token over the same tokens. */
export interface CodecScore {
  /** The mean log-probability of the instance's tokens scored alone (its first token has no context and is left out). */
  alone: number;
  /** The mean log-probability of the same tokens after the context. */
  inContext: number;
  /** inContext - alone: negative when the context lowers the model's confidence. */
  delta: number;
  /** The tokens compared. */
  tokens: number;
}

/**
 * An instance's CoDeC score from its two scoring passes. The passes are aligned at their ends: the in-context pass's
 * last tokens are the instance's (the prompt ends with it), as many as the alone pass scored, so the same tokens
 * are compared (a tokenizer that merges across the blank line shifts this by a token, which is all it can do).
 * Null when either pass scored nothing or the in-context pass is shorter than the alone one.
 */
export function codecScore(alone: TokenLogprobs, inContext: TokenLogprobs): CodecScore | null {
  const count = alone.logprobs.length;
  if (count === 0 || inContext.logprobs.length < count) return null;
  const aloneMean = meanOf(alone.logprobs);
  const inContextMean = meanOf(inContext.logprobs.slice(inContext.logprobs.length - count));
  if (!Number.isFinite(aloneMean) || !Number.isFinite(inContextMean)) return null;
  return { alone: aloneMean, inContext: inContextMean, delta: inContextMean - aloneMean, tokens: count };
}

function meanOf(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}
