import { distance } from "fastest-levenshtein";
import { eng as ENGLISH_STOP_WORDS } from "stopword";
import stem from "wink-porter2-stemmer";

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
  /**
   * Content words (normalized tokens that are not English stop words, Porter2-stemmed) of the candidate that
   * the reference has too, as a share of the candidate's: low when the candidate says things the reference
   * does not ("The table" for "The large ball"). 0 when the candidate has no content word.
   */
  contentPrecision: number;
  /** Content words of the reference that the candidate has too, as a share of the reference's. */
  contentRecall: number;
  /** How many content words the reference has. */
  referenceContentWords: number;
  /** Both texts have as many negations ("not", "never", "didn't", ...): a near-exact answer keeps its polarity. */
  sameNegation: boolean;
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

const STOP_WORDS = new Set(ENGLISH_STOP_WORDS);

/** The words that carry content, stemmed, so that "landings" meets "landing" and "raised" meets "raises". */
export function contentWords(tokens: readonly string[]): string[] {
  return tokens
    .filter((token) => !STOP_WORDS.has(token))
    .map((token) => stem(token.length > MAX_STEMMED_LENGTH ? token.slice(0, MAX_STEMMED_LENGTH) : token));
}

const NEGATIONS = new Set([
  "not",
  "no",
  "never",
  "cannot",
  "nor",
  "neither",
  "nobody",
  "nothing",
  "none",
  "nowhere",
]);

/** Negations among normalized tokens; "didn't" normalizes to "didn t", so a lone "t" after a word counts. */
export function negationCount(tokens: readonly string[]): number {
  let count = 0;
  for (const [index, token] of tokens.entries())
    if (NEGATIONS.has(token) || (token === "t" && index > 0 && tokens[index - 1].endsWith("n"))) count += 1;
  return count;
}

/** How many of `b` find a partner in `a` (a multiset intersection). */
function sharedCount(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const token of a) counts.set(token, (counts.get(token) ?? 0) + 1);
  let shared = 0;
  for (const token of b) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      shared += 1;
      counts.set(token, left - 1);
    }
  }
  return shared;
}

const f1 = (overlap: number, a: number, b: number) => (overlap === 0 ? 0 : (2 * overlap) / (a + b));

/**
 * What of a candidate is scored: all of it up to ten times the reference's length (at least 2,000 characters),
 * which no answer within the study's 100 output tokens reaches; beyond that only the start. An endpoint that
 * ignores `max_tokens` can answer megabytes, and the overlap measures are quadratic: unbounded, one 5 MB answer
 * held the event loop (and every run and request of the process) for minutes.
 */
export function judgedPart(reference: string, candidate: string): string {
  const limit = Math.max(2_000, 10 * reference.length);
  return candidate.length > limit ? candidate.slice(0, limit) : candidate;
}

/** Longest token the stemmer is given: Porter2 is quadratic in a word's length, and no English word is longer. */
const MAX_STEMMED_LENGTH = 64;

export function similarityScores(reference: string, fullCandidate: string): SimilarityScores {
  const candidate = judgedPart(reference, fullCandidate);
  const r = normalizeForJudging(reference);
  const c = normalizeForJudging(candidate);
  const rt = r ? r.split(" ") : [];
  const ct = c ? c.split(" ") : [];
  const rc = contentWords(rt);
  const cc = contentWords(ct);
  const sharedContent = sharedCount(rc, cc);
  const longer = Math.max(r.length, c.length);
  return {
    rougeL: f1(lcsLength(rt, ct), rt.length, ct.length),
    tokenF1: f1(sharedCount(rt, ct), rt.length, ct.length),
    contentPrecision: cc.length === 0 ? 0 : sharedContent / cc.length,
    contentRecall: rc.length === 0 ? 0 : sharedContent / rc.length,
    referenceContentWords: rc.length,
    sameNegation: negationCount(rt) === negationCount(ct),
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
