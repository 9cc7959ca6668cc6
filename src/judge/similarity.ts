import { distance } from "fastest-levenshtein";
import { eng as ENGLISH_STOP_WORDS } from "stopword";
import { lcsLength } from "./lcs";
import { formCanonical, typoOf } from "./meaning";
import { alignByDiff, withoutAccents } from "./positions";
import {
  align,
  ChangedSlot,
  ClassedSpan,
  changedSlots,
  numberValue,
  SlotContext,
  SpanReading,
  sameWord,
  scoredPrefix,
} from "./spans";
import { negationCount, stemOf, type Token, tokenize } from "./tokens";

export { negationCount };

/** The words of a text written together: "well known" and "wellknown" are one form. */
const joined = (tokens: readonly Token[]) => tokens.map((token) => token.norm).join("");

/** heuristic-7: two tokens are one word up to form: the same, the same number, or one word with a typo. */
function sameForm(reference: Token, candidate: Token): boolean {
  if (reference.norm === candidate.norm) return true;
  const value = numberValue(reference);
  return (value !== null && value === numberValue(candidate)) || typoOf(reference, candidate);
}

/**
 * Case, Unicode form, punctuation and whitespace do not count: what remains is compared. Every run of punctuation,
 * symbols and spaces becomes one space, in one pass (a pass for each took 40% longer).
 */
export function normalizeForJudging(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+/gu, " ")
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
  /** heuristic-6's evidence (absent from the scores of earlier versions). */
  spans?: SpanEvidence;
}

/**
 * What heuristic-6 adds to the scores: overlap measured on the answer's scored start with synonyms counted, the
 * reference verbatim at the answer's start, and the changed spans that make a pair inexact whatever the overlap.
 */
export interface SpanEvidence {
  /** How many of the answer's tokens were scored (`scoredPrefix`). */
  scoredTokens: number;
  /** ROUGE-L F1 on the scored start, where the same stem or a WordNet synonym counts as the same word. */
  rougeL: number;
  /** Content-word precision and recall on the scored start, synonyms matched after stems. */
  contentPrecision: number;
  contentRecall: number;
  /** The scored start has as many negations as the reference. */
  sameNegation: boolean;
  /** The answer starts with the whole reference. */
  leadingReference: boolean;
  /** ... and a sentence or clause boundary (or the end) follows it there. */
  boundaryAfterReference: boolean;
  /** Substitutions that change a claim (`changedSlots`). */
  changedSlots: ChangedSlot[];
  /**
   * heuristic-7: the answer is the reference word for word up to form (`formCanonical`, a number word for its
   * digits, a typo inside a long word, words written together or apart). Absent from earlier versions' evidence.
   */
  formEqual?: boolean;
  /**
   * heuristic-8: every span where the scored start differs from the reference, classed as a changed fact, a change of
   * form, or unsure (a rewording or a clause the judge cannot class). Absent from earlier versions' evidence.
   */
  classedSpans?: ClassedSpan[];
}

/** The content tokens of each side matched: by stem first, then the rest by WordNet synonymy (greedy). */
function sharedContentWithSynonyms(
  reference: readonly Token[],
  candidate: readonly Token[],
  meaning = false,
): number {
  const left = reference.filter((token) => token.content);
  const right = candidate.filter((token) => token.content);
  const unmatched = [...left];
  const rest: Token[] = [];
  let shared = 0;
  for (const token of right) {
    const at = unmatched.findIndex((other) => other.stem === token.stem);
    if (at >= 0) {
      unmatched.splice(at, 1);
      shared += 1;
    } else rest.push(token);
  }
  for (const token of rest) {
    const at = unmatched.findIndex((other) => sameWord(other, token, meaning));
    if (at >= 0) {
      unmatched.splice(at, 1);
      shared += 1;
    }
  }
  return shared;
}

/**
 * The scores heuristic-6 decides on: heuristic-5's over the whole answer, and its own over the scored start. With
 * `meaning` (heuristic-7) the span evidence reads form apart from fact: numbers lose their thousands separators,
 * a number word meets its digits, a typo inside a long word is that word, and a content word replaced by another of
 * its kind is a changed slot (meaning.ts). Exactness is still read on the texts as written.
 */
export function spanAwareScores(
  originalReference: string,
  fullCandidate: string,
  context: SlotContext = {},
  reading: SpanReading = "span",
): SimilarityScores {
  const meaning = reading !== "span";
  const scores = similarityScores(originalReference, judgedPart(originalReference, fullCandidate));
  const canonical = (text: string) =>
    reading === "position" ? withoutAccents(formCanonical(text)) : meaning ? formCanonical(text) : text;
  const reference = canonical(originalReference);
  const candidate = judgedPart(reference, canonical(fullCandidate));
  const referenceTokens = tokenize(reference);
  const candidateTokens = tokenize(candidate);
  const scored = scoredPrefix(candidateTokens, referenceTokens.length);
  const pairs =
    reading === "position"
      ? (alignByDiff(referenceTokens, scored, (a, b) => sameWord(a, b, true)) ??
        align(referenceTokens, scored, meaning))
      : align(referenceTokens, scored, meaning);
  const referenceContent = referenceTokens.filter((token) => token.content).length;
  const scoredContent = scored.filter((token) => token.content).length;
  const shared = sharedContentWithSynonyms(referenceTokens, scored, meaning);
  const leading =
    referenceTokens.length > 0 &&
    candidateTokens.length >= referenceTokens.length &&
    referenceTokens.every((token, i) => token.norm === candidateTokens[i].norm);
  const next = candidateTokens[referenceTokens.length];
  const boundary =
    leading &&
    (next === undefined ||
      next.sentenceStart ||
      /^[\s]*[,;:.!?\n)]/.test(textAfterTokens(candidate, referenceTokens.length)));
  const norms = (tokens: readonly Token[]) => tokens.map((token) => token.norm);
  const classed: ClassedSpan[] | undefined = reading === "position" ? [] : undefined;
  const slots = changedSlots(reference, candidate, context, referenceTokens, scored, pairs, reading, classed);
  return {
    ...scores,
    spans: {
      scoredTokens: scored.length,
      rougeL: f1(pairs.length, referenceTokens.length, scored.length),
      contentPrecision: scoredContent === 0 ? 0 : shared / scoredContent,
      contentRecall: referenceContent === 0 ? 0 : shared / referenceContent,
      sameNegation: negationCount(norms(referenceTokens)) === negationCount(norms(scored)),
      leadingReference: leading,
      boundaryAfterReference: boundary,
      changedSlots: slots,
      ...(meaning
        ? {
            ...(classed ? { classedSpans: classed } : {}),
            formEqual:
              referenceTokens.length > 0 &&
              (referenceTokens.length === candidateTokens.length
                ? referenceTokens.every((token, i) => sameForm(token, candidateTokens[i]))
                : joined(referenceTokens) === joined(candidateTokens)),
          }
        : {}),
    },
  };
}

/** The text of `text` after its first `count` judge tokens. */
function textAfterTokens(text: string, count: number): string {
  const source = text.normalize("NFKC");
  let seen = 0;
  for (const match of source.matchAll(/[^\s\p{P}\p{S}]+/gu)) {
    seen += 1;
    if (seen === count) return source.slice((match.index ?? 0) + match[0].length);
  }
  return "";
}

const STOP_WORDS = new Set(ENGLISH_STOP_WORDS);

/** The words that carry content, stemmed, so that "landings" meets "landing" and "raised" meets "raises". */
export function contentWords(tokens: readonly string[]): string[] {
  return tokens.filter((token) => !STOP_WORDS.has(token)).map((token) => stemOf(token));
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
