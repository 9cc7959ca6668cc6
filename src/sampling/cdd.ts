// CDD, contamination detection via output distribution (Dong et al., ACL 2024): a model that memorized an
// instance answers its first piece with nearly the same continuation however it samples, so its sampled
// continuations sit peaked around the greedy one. Pure.

import { distance } from "fastest-levenshtein";
import { encodeText } from "../llm/tokenizer";
import { CDD_SAMPLING, CDD_THRESHOLDS } from "../study/grid";

/**
 * The authors' defaults: 50 samples at temperature 0.8 (`CDD_SAMPLING`, the grid's); an instance is leaked when
 * more than xi = 0.01 of its samples lie within alpha = 0.05 of the longest continuation's length of the greedy
 * one (token edit distance).
 */
export const CDD_DEFAULTS = {
  samples: CDD_SAMPLING.samples,
  temperature: CDD_SAMPLING.temperature,
  ...CDD_THRESHOLDS,
} as const;

export interface CddParameters {
  samples: number;
  temperature: number;
  alpha: number;
  xi: number;
}

/** What one instance's continuations say. */
export interface CddInstance {
  /** The share of samples within alpha x the longest length of the greedy continuation (the authors' Peak). */
  peakedness: number;
  /** peakedness > xi. */
  leaked: boolean;
  /** Samples compared (failed ones are not). */
  samples: number;
  /** The longest continuation's length in tokens, greedy included (the authors' l). */
  longest: number;
  /** The mean token edit distance of a sample to the greedy continuation. */
  meanDistance: number;
}

/**
 * The edit distance of two token sequences (insertions, deletions and substitutions of whole tokens), by
 * fastest-levenshtein over strings whose characters stand for the tokens: each distinct token of the pair gets
 * one character, so a character's edit is a token's.
 */
export function tokenEditDistance(a: readonly number[], b: readonly number[]): number {
  // More distinct tokens than single code units outside the surrogates: the plain dynamic programme.
  if (new Set([...a, ...b]).size > MAX_CODES) return plainEditDistance(a, b);
  const codes = new Map<number, string>();
  const text = (tokens: readonly number[]) => {
    let out = "";
    for (const token of tokens) {
      let code = codes.get(token);
      if (code === undefined) {
        // Characters from U+0100 up, skipping the surrogate range, so every one is a whole code unit.
        const next = 0x100 + codes.size;
        code = String.fromCharCode(next < 0xd800 ? next : next + 0x800);
        codes.set(token, code);
      }
      out += code;
    }
    return out;
  };
  return distance(text(a), text(b));
}

const MAX_CODES = 0x10000 - 0x100 - 0x800;

function plainEditDistance(a: readonly number[], b: readonly number[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length];
}

/**
 * One instance's peakedness from token sequences: the share of samples whose edit distance to the greedy
 * continuation is at most alpha times the longest length (greedy included, the authors' l). Null without samples.
 */
export function peakednessOfTokens(
  greedy: readonly number[],
  samples: readonly (readonly number[])[],
  parameters: Pick<CddParameters, "alpha" | "xi">,
): CddInstance | null {
  if (samples.length === 0) return null;
  const longest = Math.max(greedy.length, ...samples.map((sample) => sample.length));
  const distances = samples.map((sample) => tokenEditDistance(greedy, sample));
  const within = distances.filter((d) => d <= parameters.alpha * longest).length;
  const peakedness = within / samples.length;
  return {
    peakedness,
    leaked: peakedness > parameters.xi,
    samples: samples.length,
    longest,
    meanDistance: distances.reduce((sum, d) => sum + d, 0) / distances.length,
  };
}

/** One instance's peakedness from its continuations' texts, tokenized by the gpt-4o tokenizer. */
export function cddInstance(
  greedy: string,
  samples: readonly string[],
  parameters: Pick<CddParameters, "alpha" | "xi">,
): CddInstance | null {
  return peakednessOfTokens(
    encodeText(greedy),
    samples.map((sample) => encodeText(sample)),
    parameters,
  );
}

/** Problems with CDD parameters (each named), empty when they are usable. */
export function cddParameterProblems(parameters: CddParameters): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(parameters.samples) || parameters.samples < 2 || parameters.samples > 200)
    problems.push("samples: a whole number from 2 to 200");
  if (!(parameters.temperature > 0 && parameters.temperature <= 2))
    problems.push("temperature: above 0 (a sample at 0 is the greedy answer) and at most 2");
  if (!(parameters.alpha >= 0 && parameters.alpha < 1)) problems.push("alpha: from 0 to below 1");
  if (!(parameters.xi >= 0 && parameters.xi < 1)) problems.push("xi: from 0 to below 1");
  return problems;
}
