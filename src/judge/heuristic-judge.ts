import { normalizeLightly, SimilarityScores, similarityScores } from "./similarity";
import { JudgeVerdict } from "./verdicts";

/** The thresholds of the heuristic rule; fitted by `memicl calibrate-judge`, reported in docs/JUDGING.md. */
export interface HeuristicThresholds {
  /** Near-exact when ROUGE-L F1 reaches this. */
  rougeL: number;
  /** Near-exact when the candidate contains the whole reference and the reference has at least this many tokens. */
  containedReferenceMinTokens: number;
  /** Near-exact when the character similarity reaches this. */
  charSimilarity: number;
  /** Near-exact when the content-word precision reaches this and the content-word recall reaches `contentRecall`. */
  contentPrecision: number;
  /** See `contentPrecision`. */
  contentRecall: number;
}

/**
 * heuristic-2: exact matches of punctuation-only references; punctuation added as its own tokens is not exact.
 * heuristic-3: a completion that reproduces a sibling's continuation (another row with the same initial
 * segment) rather than the instance's own is INEXACT.
 * heuristic-4: references of one or two words (41% of TREC's targets) are near-exact only with the same words
 * (punctuation aside); any change of a word is INEXACT, since overlap cannot tell recall from a guess there.
 * heuristic-5: a paraphrase of a reference of 8+ content words is near-exact when its content words come from
 * the reference and cover most of it (content-word precision and recall), whatever their order: the human near-exact matches are mostly
 * reordered paraphrases that ROUGE-L, an in-order measure, scores low. And an answer that negates its reference
 * (or drops its negation) is not near-exact by overlap.
 */
export const HEURISTIC_JUDGE_VERSION = "heuristic-5";

/** References of at most this many normalized tokens get the short-reference rule. */
export const SHORT_REFERENCE_TOKENS = 2;

/**
 * The content-word rule needs a reference of at least this many content words. In a short sentence, one
 * changed word is another sentence ("Vera Beers works for Olivet." for "... for Standard Printing.": precision
 * 0.75, recall 0.6) and word order carries who did what, so short references are left to ROUGE-L, which reads
 * order. Decided, not fitted (docs/JUDGING.md).
 */
export const CONTENT_RULE_MIN_WORDS = 8;

/** SHA-256 of the gold file the default thresholds were fitted on (the shared `time-travel-human-labels.csv`). */
export const DEFAULT_THRESHOLDS_FITTED_ON =
  "fd9df18e97781d99957d5a2845de6de069805b6744a5e380e67f7e585bdc4b89";

/**
 * ROUGE-L and containment as fitted on all 280 pairs of the gold file by heuristic-1's calibration, now fixed;
 * the content-word thresholds as `memicl calibrate-judge` fits them on the same file (docs/JUDGING.md has the
 * held-out figures). charSimilarity 1.01 switches that test off: on the gold file it added nothing.
 */
export const DEFAULT_THRESHOLDS: HeuristicThresholds = {
  rougeL: 0.8,
  containedReferenceMinTokens: 15,
  charSimilarity: 1.01,
  contentPrecision: 0.7,
  contentRecall: 0.6,
};

export interface HeuristicJudgment {
  verdict: JudgeVerdict;
  scores: SimilarityScores;
  /** Set when the sibling rule decided: the sibling continuation the completion reproduces. */
  siblingContinuation?: string;
}

/**
 * EXACT when the texts are the same up to case, Unicode form, spacing and punctuation the candidate drops or
 * attaches to its last word (`isExactMatch`);
 * NEAR_EXACT when ROUGE-L, content-word overlap both ways, character similarity, or containment of a long
 * enough reference says so;
 * INEXACT otherwise.
 */
export function judgeHeuristically(
  reference: string,
  candidate: string,
  thresholds = DEFAULT_THRESHOLDS,
  siblings: readonly string[] = [],
): HeuristicJudgment {
  const scores = similarityScores(reference, candidate);
  const verdict = verdictFromScores(scores, thresholds);
  if (verdict === "INEXACT") return { verdict, scores };
  const sibling = siblingReproduced(reference, candidate, siblings, thresholds, { scores, verdict });
  return sibling ? { verdict: "INEXACT", scores, siblingContinuation: sibling } : { verdict, scores };
}

const RANK: Record<JudgeVerdict, number> = { EXACT: 2, NEAR_EXACT: 1, INEXACT: 0, UNPARSEABLE: 0 };

/**
 * The sibling rule (the seed's WNLI case): "The mouse was too cautious." for the reference "The cat was too
 * cautious." is near-exact by overlap, but it is another row's sentence 2, remembered or copied, not this
 * instance's. Returns the sibling continuation the candidate matches at least as well as its own reference
 * (a better verdict, or the same near-exact verdict with a higher ROUGE-L), else null. Used by every judge: an
 * automatic verdict of exact or near-exact becomes INEXACT when it returns a sibling.
 */
export function siblingReproduced(
  reference: string,
  candidate: string,
  siblings: readonly string[],
  thresholds = DEFAULT_THRESHOLDS,
  own?: { scores: SimilarityScores; verdict: JudgeVerdict },
): string | null {
  if (siblings.length === 0) return null;
  const scores = own?.scores ?? similarityScores(reference, candidate);
  const verdict = own?.verdict ?? verdictFromScores(scores, thresholds);
  for (const sibling of siblings) {
    if (normalizeLightly(sibling) === normalizeLightly(reference)) continue;
    const siblingScores = similarityScores(sibling, candidate);
    const siblingVerdict = verdictFromScores(siblingScores, thresholds);
    const better =
      RANK[siblingVerdict] > RANK[verdict] ||
      (siblingVerdict === "NEAR_EXACT" && verdict === "NEAR_EXACT" && siblingScores.rougeL > scores.rougeL);
    if (siblingVerdict !== "INEXACT" && better) return sibling;
  }
  return null;
}

/** The rule itself, on scores computed once (calibration tries many thresholds on the same scores). */
export function verdictFromScores(scores: SimilarityScores, thresholds: HeuristicThresholds): JudgeVerdict {
  if (scores.normalizedEqual) return "EXACT";
  // One or two words: "New York" -> "New York City" is ROUGE-L 0.8 and "Moon" -> "the Moon" 0.67, yet either
  // could be a guess as well as a memory. Near-exact here means the same words with different punctuation.
  if (scores.referenceTokens <= SHORT_REFERENCE_TOKENS)
    return scores.referenceTokens > 0 &&
      scores.rougeL === 1 &&
      scores.candidateTokens === scores.referenceTokens
      ? "NEAR_EXACT"
      : "INEXACT";
  // Overlap is blind to polarity ("Arnold did not live two centuries later" against the affirmative): a
  // near-exact answer has as many negations as its reference. The whole of a long reference with more added is
  // judged by containment alone, since the addition may negate something else.
  const similar =
    scores.rougeL >= thresholds.rougeL ||
    scores.charSimilarity >= thresholds.charSimilarity ||
    (scores.referenceContentWords >= CONTENT_RULE_MIN_WORDS &&
      scores.contentPrecision >= thresholds.contentPrecision &&
      scores.contentRecall >= thresholds.contentRecall);
  const near =
    (similar && scores.sameNegation) ||
    (scores.containsReference && scores.referenceTokens >= thresholds.containedReferenceMinTokens);
  return near ? "NEAR_EXACT" : "INEXACT";
}
