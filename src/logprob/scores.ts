import { deflateInit2, deflateReset, deflate as deflateStep } from "pako/lib/zlib/deflate.js";
import ZStream from "pako/lib/zlib/zstream.js";

/**
 * Membership scores of one text from its token log-probabilities under a model (pure). Each score is oriented so
 * that higher means "more likely seen in training" (a member), as the papers' detectors threshold them:
 * - `loss`: the mean log-likelihood per token (the negated loss; Yeom et al. 2018, Carlini et al. 2021);
 * - `zlib`: that mean log-likelihood over the text's zlib-compressed length in bytes (Carlini et al. 2021, as the
 *   Min-K% authors' code computes it);
 * - `minK`: Min-K% Prob, the mean of the lowest k% of the token log-probabilities (Shi et al. 2024);
 * - `minKPlusPlus`: Min-K%++, the same over each token's log-probability standardised by the mean and standard
 *   deviation of the log-probability under the model's next-token distribution (Zhang et al. 2024), computed
 *   over the alternatives the server returns;
 * - `reference`: the mean log-likelihood minus a reference model's on the same text (Carlini et al. 2021).
 */
export type ScoreName = "loss" | "zlib" | "minK" | "minKPlusPlus" | "reference";
export const SCORE_NAMES: readonly ScoreName[] = ["loss", "zlib", "minK", "minKPlusPlus", "reference"];

/** The share of the lowest tokens Min-K% and Min-K%++ average over (the papers' recommended 20%). */
export const MIN_K_SHARE = 0.2;

/**
 * What a scoring call stores for one text: per scored token (the first token has no context and is left out), its
 * log-probability, and the mean and standard deviation of the log-probability over the returned alternatives
 * (null where the server returned none).
 */
export interface TokenLogprobs {
  version: 1;
  /** Tokens of the text, the first included. */
  tokens: number;
  logprobs: number[];
  means: (number | null)[];
  deviations: (number | null)[];
  /** How many alternatives per position the server returned (0: none). */
  top: number;
}

/** What a scoring call's `output` says: its values are in their own column (`completion.token_logprobs`). */
export const scoredNote = (tokens: number) => `scored: ${tokens} token log-probabilities (in token_logprobs)`;

/**
 * The stored payload of a scoring call (the completion's `token_logprobs`, or its `output` for answers stored
 * before that column), or null when it is not one.
 */
export function readTokenLogprobs(output: string | null): TokenLogprobs | null {
  if (!output?.startsWith('{"version":1')) return null;
  try {
    const value = JSON.parse(output) as TokenLogprobs;
    return Array.isArray(value.logprobs) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The mean and standard deviation of log p(z) under the distribution of the alternatives at one position, the
 * alternatives' probabilities renormalised to sum to one (exact when they cover the vocabulary).
 */
export function distributionMoments(
  alternatives: readonly number[],
): { mean: number; deviation: number } | null {
  const finite = alternatives.filter(Number.isFinite);
  if (finite.length === 0) return null;
  const top = Math.max(...finite);
  const weights = finite.map((logprob) => Math.exp(logprob - top));
  const total = weights.reduce((a, b) => a + b, 0);
  let mean = 0;
  for (const [i, logprob] of finite.entries()) mean += (weights[i] / total) * logprob;
  let variance = 0;
  for (const [i, logprob] of finite.entries()) variance += (weights[i] / total) * (logprob - mean) ** 2;
  return { mean, deviation: Math.sqrt(variance) };
}

/** The mean of the lowest `share` of the values (at least one). */
export function meanOfLowest(values: readonly number[], share = MIN_K_SHARE): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const count = Math.max(1, Math.floor(sorted.length * share));
  let sum = 0;
  for (let i = 0; i < count; i += 1) sum += sorted[i];
  return sum / count;
}

// zlib's return codes and flush mode (zlib.h), as pako's low-level functions use them.
const Z_OK = 0;
const Z_STREAM_END = 1;
const Z_FINISH = 4;

/** One deflate stream, reset for each text: a fresh one allocates about 256 KB of window and tables. */
let stream: ZStream | null = null;
/** Where the compressed bytes go; only their count is kept, so a longer output reuses it. */
const compressed = new Uint8Array(16_384);

/**
 * zlib's compressed length of the text's UTF-8 bytes at the default level (the entropy estimate of the zlib score).
 * By pako, a port of the zlib library Python's `zlib.compress` calls, byte for byte: Node's own zlib is another
 * build whose output for the same text can be 5 bytes longer (50 against 45 for a 45-character sentence). One
 * stream, reset for each text (`deflateReset`, as zlib's own), where `pako.deflate` sets up a new one each time:
 * 10,000 sentences in 0.38 s of CPU against 0.59-0.92 s, the same lengths (test/unit/methods/logprob.test.ts).
 */
export function zlibLength(text: string): number {
  if (stream === null) {
    const created = new ZStream();
    // pako.deflate's defaults: level -1 (6), deflate, a 32 KB window with the zlib header, memLevel 8, the
    // default strategy.
    if (deflateInit2(created, -1, 8, 15, 8, 0) !== Z_OK)
      throw new Error("zlib: could not set up a deflate stream");
    stream = created;
  } else if (deflateReset(stream) !== Z_OK) {
    stream = null;
    throw new Error("zlib: could not reset the deflate stream");
  }
  const input = Buffer.from(text, "utf8");
  stream.input = input;
  stream.next_in = 0;
  stream.avail_in = input.length;
  for (;;) {
    stream.output = compressed;
    stream.next_out = 0;
    stream.avail_out = compressed.length;
    const status = deflateStep(stream, Z_FINISH);
    if (status === Z_STREAM_END) {
      stream.input = null;
      return stream.total_out;
    }
    // With all the input given and room for output, deflate goes on (Z_OK) until it has finished (Z_STREAM_END).
    if (status !== Z_OK) {
      stream = null;
      throw new Error(`zlib: deflate failed (${status})`);
    }
  }
}

export type Scores = Record<Exclude<ScoreName, "reference">, number> & { reference: number | null };

/** Every score of one text; `reference` from a reference model's log-probabilities of the same text, when given. */
export function membershipScores(
  text: string,
  scored: TokenLogprobs,
  referenceScored: TokenLogprobs | null = null,
  share = MIN_K_SHARE,
): Scores {
  const mean = (values: readonly number[]) =>
    values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
  const likelihood = mean(scored.logprobs);
  const standardised = scored.logprobs.flatMap((logprob, i) => {
    const mu = scored.means[i];
    const sigma = scored.deviations[i];
    return mu === null || sigma === null || sigma <= 0 ? [] : [(logprob - mu) / sigma];
  });
  return {
    loss: likelihood,
    zlib: likelihood / zlibLength(text),
    minK: meanOfLowest(scored.logprobs, share),
    minKPlusPlus: standardised.length === 0 ? Number.NaN : meanOfLowest(standardised, share),
    reference: referenceScored ? likelihood - mean(referenceScored.logprobs) : null,
  };
}

/** One position of a scored text as a server returns it: the token's log-probability, and its alternatives'. */
export interface ScoredPosition {
  logprob: number | null;
  alternatives: readonly number[];
}

/**
 * The payload stored for a scored text: the positions with a log-probability (a server gives none for the first
 * token, which has no context), with the moments of their alternatives' distribution (the token's own counted when
 * the server leaves it out of them).
 */
export function tokenLogprobsOf(positions: readonly ScoredPosition[], top: number): TokenLogprobs {
  const scored = positions.filter(
    (position): position is ScoredPosition & { logprob: number } =>
      position.logprob !== null && Number.isFinite(position.logprob),
  );
  const moments = scored.map((position) =>
    position.alternatives.length === 0
      ? null
      : distributionMoments(
          position.alternatives.some((value) => Math.abs(value - position.logprob) < 1e-9)
            ? position.alternatives
            : [...position.alternatives, position.logprob],
        ),
  );
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  return {
    version: 1,
    tokens: positions.length,
    logprobs: scored.map((position) => round(position.logprob)),
    means: moments.map((m) => (m ? round(m.mean) : null)),
    deviations: moments.map((m) => (m ? round(m.deviation) : null)),
    top,
  };
}

/**
 * Below this a log-probability is a clamped infinity, not a value: vLLM answers -9999 for -inf. No token of a real
 * model's distribution is this unlikely (e^-1000).
 */
export const CLAMPED_LOGPROB_FLOOR = -1000;

/** A server's prompt log-probabilities as the completions endpoint returns them with `echo` (the parts checked). */
export interface EchoedLogprobs {
  tokenLogprobs: readonly unknown[];
  /** `tokens`, when the server sends them. */
  tokens?: readonly unknown[] | null;
  /** `text_offset`, when the server sends it. */
  textOffsets?: readonly unknown[] | null;
}

/**
 * Why an echoed answer cannot be scored, or null when it can: it must echo the prompt (more than the one generated
 * token, offsets starting at the prompt's start), with arrays of one length, and a finite value above the clamped
 * floor at every position but the first (which has no context). A shorter or silently changed score is never made
 * of such an answer: the item fails with the reason.
 */
export function echoedLogprobsProblem(answer: EchoedLogprobs, promptText: string): string | null {
  const n = answer.tokenLogprobs.length;
  if (n === 0) return "the server returned empty prompt log-probabilities (token_logprobs is [])";
  for (const [name, array] of [
    ["tokens", answer.tokens],
    ["text_offset", answer.textOffsets],
  ] as const)
    if (Array.isArray(array) && array.length !== n)
      return `the server's arrays differ in length (${array.length} ${name}, ${n} token_logprobs)`;
  const offsets = Array.isArray(answer.textOffsets) ? answer.textOffsets : null;
  const wordsInPrompt = promptText.trim().split(/\s+/).filter(Boolean).length;
  if ((offsets && offsets.length > 0 && offsets[0] !== 0) || (n <= 1 && wordsInPrompt > 1))
    return (
      "this server does not echo prompt log-probabilities (it scored the generated token only): the LOGPROB " +
      "method needs `echo` with `logprobs` on the completions endpoint"
    );
  for (let i = 1; i < n; i += 1) {
    const value = answer.tokenLogprobs[i];
    // Past the prompt (the generated token) nothing is checked.
    if (offsets && typeof offsets[i] === "number" && (offsets[i] as number) >= promptText.length) break;
    if (value === null || value === undefined)
      return `the server returned no log-probability at prompt position ${i} (only the first token may have none)`;
    if (typeof value !== "number" || !Number.isFinite(value))
      return `the server returned a log-probability that is not a finite number at prompt position ${i}`;
    if (value <= CLAMPED_LOGPROB_FLOOR)
      return (
        `the server returned ${value} at prompt position ${i}: a clamped -infinity (below ${CLAMPED_LOGPROB_FLOOR}), ` +
        "not a log-probability"
      );
  }
  return null;
}
