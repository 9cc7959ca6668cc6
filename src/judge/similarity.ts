import { distance } from "fastest-levenshtein";

/** Case, Unicode form, punctuation and whitespace do not count: what remains is compared. */
export function normalizeForJudging(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The similarity features the heuristic judge decides on (all in [0, 1] except the token counts). */
export interface SimilarityScores {
  /** ROUGE-L F1 over normalized tokens (longest common subsequence). */
  rougeL: number;
  /** Unigram F1 (bag of words). */
  tokenF1: number;
  /** 1 - Levenshtein distance / longer length, over normalized characters. */
  charSimilarity: number;
  /** The normalized reference appears whole inside the normalized candidate. */
  containsReference: boolean;
  /** Equal after normalization (and not empty): an exact match. */
  normalizedEqual: boolean;
  referenceTokens: number;
  candidateTokens: number;
}

function lcsLength(a: string[], b: string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const current = [0];
    for (let j = 0; j < b.length; j += 1)
      current.push(x === b[j] ? previous[j] + 1 : Math.max(previous[j + 1], current[j]));
    previous = current;
  }
  return previous[b.length];
}

const f1 = (overlap: number, a: number, b: number) => (overlap === 0 ? 0 : (2 * overlap) / (a + b));

export function similarityScores(reference: string, candidate: string): SimilarityScores {
  const r = normalizeForJudging(reference);
  const c = normalizeForJudging(candidate);
  const rt = r ? r.split(" ") : [];
  const ct = c ? c.split(" ") : [];
  const counts = new Map<string, number>();
  for (const token of rt) counts.set(token, (counts.get(token) ?? 0) + 1);
  let shared = 0;
  for (const token of ct) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      shared += 1;
      counts.set(token, left - 1);
    }
  }
  const longer = Math.max(r.length, c.length);
  return {
    rougeL: f1(lcsLength(rt, ct), rt.length, ct.length),
    tokenF1: f1(shared, rt.length, ct.length),
    charSimilarity: longer === 0 ? 1 : 1 - distance(r, c) / longer,
    containsReference: r.length > 0 && ` ${c} `.includes(` ${r} `),
    normalizedEqual: r.length > 0 && r === c,
    referenceTokens: rt.length,
    candidateTokens: ct.length,
  };
}
