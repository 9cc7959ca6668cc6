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
  /** An exact match: see `isExactMatch`. */
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
    normalizedEqual: isExactMatch(reference, candidate),
    referenceTokens: rt.length,
    candidateTokens: ct.length,
  };
}

/** Case, Unicode form and spacing only (punctuation kept). */
export const normalizeLightly = (text: string) =>
  text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
const PUNCTUATION = /[\p{P}\p{S}]/gu;

/**
 * Exact match: the same text up to case, Unicode form and spacing; or the same words (punctuation aside)
 * where the candidate only drops punctuation or adds marks attached to its last word ("mat" / "mat.").
 * A reference of punctuation only ("?", 12 of 200 TREC targets) matches itself. Punctuation the candidate
 * adds as tokens of their own ("merged ?" -> "merged ? ?") is not exact: it continues the text.
 */
export function isExactMatch(reference: string, candidate: string): boolean {
  const lr = normalizeLightly(reference);
  const lc = normalizeLightly(candidate);
  if (lr === lc) return lr !== "";
  const r = normalizeForJudging(reference);
  if (r === "" || r !== normalizeForJudging(candidate)) return false;
  const left = new Map<string, number>();
  for (const mark of lr.match(PUNCTUATION) ?? []) left.set(mark, (left.get(mark) ?? 0) + 1);
  const extra: string[] = [];
  for (const mark of lc.match(PUNCTUATION) ?? []) {
    const count = left.get(mark) ?? 0;
    if (count > 0) left.set(mark, count - 1);
    else extra.push(mark);
  }
  if (extra.length === 0) return true;
  const tail = /[^\s\p{P}\p{S}]([\p{P}\p{S}]+)$/u.exec(lc)?.[1] ?? "";
  const available = [...tail];
  return extra.every((mark) => {
    const at = available.indexOf(mark);
    if (at < 0) return false;
    available.splice(at, 1);
    return true;
  });
}
