// The no-memory floor: what the judge says of answers a model could give without any memory of the instance.
// Pure.

import {
  couldBeNearExact,
  DEFAULT_THRESHOLDS,
  HeuristicThresholds,
  judgeHeuristically,
  SPAN_AWARE_CONTENT_RULE_MIN_WORDS,
  wordCounts,
} from "./heuristic-judge";
import { synonymKeys } from "./lexicon";
import { formCanonical, TYPO_TRANSPOSITION_MIN_LENGTH } from "./meaning";
import { withoutAccents } from "./positions";
import { normalizeLightly } from "./similarity";
import { numberValue } from "./spans";
import { type Token, tokenize } from "./tokens";
import { JudgeVerdict } from "./verdicts";

/**
 * The floor's rule; bump it when the answers below change, so a report says which floor it shows.
 * floor-1: the input, each of its sentences, clauses and clause tails, its last three words; the most common reference
 * of the other instances of the sample (when at least two share it); "?" and ".".
 * floor-2: the same answers, judged by the current heuristic (heuristic-6) with the instance's input as its first
 * piece, so an NLI copy that leaves sentence 1's pronoun unresolved is not a match.
 * floor-3: also every demonstration's continuation a k-shot prompt shows (a model that copies the most similar
 * demonstration copies one of them), recorded as the smallest k whose prompt holds one that matches; and whether
 * the best no-memory answer is exact (Time Travel's rule counts exact and near-exact apart).
 * floor-4: floor-3's answers judged by heuristic-7 (a number in another form or a copied clause with one content
 * word swapped is judged as heuristic-7 judges it).
 * floor-5: floor-4's answers judged by heuristic-8 (a copied clause whose words trade places, or that replaces one
 * occurrence of a recurring word, is judged as heuristic-8 judges it).
 */
export const NO_MEMORY_FLOOR_VERSION = "floor-5";

/** Where a no-memory answer comes from. */
export type NoMemoryStrategy = "copy" | "constant" | "demonstration";

export interface NoMemoryAnswer {
  strategy: NoMemoryStrategy;
  answer: string;
}

/** Words that open a clause: an answer copied from the input may start at any of them, or just after. */
const CLAUSE_OPENERS =
  /\s+(?=(?:because|but|so|and|or|although|though|since|when|whenever|while|if|unless|that|which|who|whom|whose|where|after|before|until|as|then|than)\b)/i;

/** The constant answers any model can give: a question mark (TREC's questions end in one) and a full stop. */
export const CONSTANT_ANSWERS = ["?", "."] as const;

/**
 * The answers a model that knows nothing of the instance could give by copying its input: the whole input, every
 * clause of it (split at , ; : and before a clause-opening word), every tail of it from a clause boundary on (with
 * and without the opening word), and its last three words. Distinct, in that order.
 */
export function copyAnswers(input: string): string[] {
  const text = input.trim();
  if (!text) return [];
  const answers = new Set<string>([text]);
  const pieces = text
    .split(/(?<=[.!?,;:])\s+/)
    .flatMap((part) => part.split(CLAUSE_OPENERS))
    .map((piece) => piece.trim())
    .filter(Boolean);
  const withoutOpener = (piece: string) => piece.replace(/^\S+\s+/, "");
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index].replace(/[,;:]$/, "");
    if (!piece) continue;
    const tail = pieces.slice(index).join(" ");
    for (const answer of [piece, tail]) {
      answers.add(answer);
      if (index > 0 && CLAUSE_OPENERS.test(` ${answer}`)) answers.add(withoutOpener(answer));
    }
  }
  const words = text.split(/\s+/);
  if (words.length > 3) answers.add(words.slice(-3).join(" "));
  return [...answers].filter((answer) => answer.trim());
}

/** References counted without case or spacing, most common first (ties: first seen first). */
function referenceCounts(references: readonly string[]): { key: string; text: string; count: number }[] {
  const counts = new Map<string, { key: string; text: string; count: number }>();
  for (const reference of references) {
    const key = normalizeLightly(reference);
    if (!key) continue;
    const entry = counts.get(key) ?? { key, text: reference.trim(), count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count);
}

/** The most common reference (compared without case or spacing) that at least two of `references` share. */
export function mostCommonReference(references: readonly string[]): string | null {
  const [top] = referenceCounts(references);
  return top && top.count >= 2 ? top.text : null;
}

export interface FloorInstance {
  /** The initial segment: what the prompt shows of the instance. */
  input: string;
  reference: string;
  /** Other rows' continuations of the same initial segment (the judge's sibling rule). */
  siblings?: readonly string[];
  /** An NLI instance (the judge then checks the referent sentence 1 resolves). */
  nli?: boolean;
}

/**
 * What the floor says of one sampled instance: whether a no-memory answer that needs no demonstration (a copy of
 * the input, a constant) is memorized for it, and from where; whether that answer is exact; and the smallest k
 * whose prompt shows a demonstration whose continuation is memorized for it (null: none up to the sample's
 * largest k).
 */
export interface InstanceFloor {
  memorized: boolean;
  strategy: NoMemoryStrategy | null;
  exact?: boolean;
  demonstrationShots?: number | null;
}

/** Whether the floor covers an instance in a k-shot prompt: a copy or constant matches, or a shown demonstration's. */
export function inFloorAt(floor: InstanceFloor | undefined, shots: number): boolean {
  if (!floor) return false;
  return floor.memorized || (floor.demonstrationShots != null && floor.demonstrationShots <= shots);
}

/** An instance's floor verdict as the report counts it: exact and near-exact are memorized. */
export function instanceFloorOf(
  verdict: FloorVerdict,
  demonstrationShots: number | null = null,
): InstanceFloor {
  return {
    memorized: verdict.verdict === "EXACT" || verdict.verdict === "NEAR_EXACT",
    strategy: verdict.answer?.strategy ?? null,
    exact: verdict.verdict === "EXACT",
    demonstrationShots,
  };
}

/** The heuristic judge's verdict on a no-memory answer: with the sibling rule and the input as its first piece. */
function judgeNoMemoryAnswer(
  instance: FloorInstance,
  answer: string,
  thresholds: HeuristicThresholds,
): JudgeVerdict {
  return judgeHeuristically(instance.reference, answer, thresholds, instance.siblings ?? [], {
    context: { firstPiece: instance.input, nli: instance.nli ?? false },
  }).verdict;
}

/** A demonstration as the k-shot prompts show it: in every prompt of k > rank. */
export interface FloorDemonstration {
  rank: number;
  continuation: string;
}

/**
 * The smallest k whose prompt shows a demonstration whose continuation the judge (with the sibling rule and the
 * instance's input as its first piece) counts as memorized for the instance: a model that copies a shown
 * demonstration's continuation gets it without memory. `demonstrations` in rank order; null when none matches.
 */
export function demonstrationFloorShots(
  instance: FloorInstance,
  demonstrations: readonly FloorDemonstration[],
  thresholds: HeuristicThresholds = DEFAULT_THRESHOLDS,
  counts: readonly ReturnType<typeof wordCounts>[] = demonstrations.map((d) => wordCounts(d.continuation)),
  /** Each demonstration's continuation indexed once (`indexForMatching`), for the bound that spares judging it. */
  indexes?: readonly (MatchIndex | null)[],
): number | null {
  const reference = wordCounts(instance.reference);
  let referenceReadings: Token[][] | null = null;
  for (const [index, demonstration] of demonstrations.entries()) {
    if (!couldBeNearExact(reference, counts[index], thresholds)) continue;
    // A long continuation is judged only where the bound on runs of its words leaves it a chance.
    if (indexes?.[index]) {
      referenceReadings ??= readingsOf(instance.reference);
      if (!runsCouldMatch(referenceReadings, indexes[index], thresholds)) continue;
    }
    const verdict = judgeNoMemoryAnswer(instance, demonstration.continuation, thresholds);
    if (verdict === "EXACT" || verdict === "NEAR_EXACT") return demonstration.rank + 1;
  }
  return null;
}

export interface FloorVerdict {
  /** The best verdict any no-memory answer gets: EXACT, NEAR_EXACT or INEXACT. */
  verdict: JudgeVerdict;
  /** The no-memory answer that got it (null when every answer is inexact). */
  answer: NoMemoryAnswer | null;
}

const RANK: Record<JudgeVerdict, number> = { EXACT: 2, NEAR_EXACT: 1, INEXACT: 0, UNPARSEABLE: 0 };

/**
 * The best verdict the heuristic judge (with its sibling rule) gives any no-memory answer to one instance: an
 * instance whose floor verdict is exact or near-exact would be counted memorized by a model that copies or
 * guesses a constant, so a match there says nothing about memory. `common` is the sample's most common other
 * reference, if any.
 */
export function floorVerdict(
  instance: FloorInstance,
  common: string | null,
  thresholds: HeuristicThresholds = DEFAULT_THRESHOLDS,
): FloorVerdict {
  const answers: NoMemoryAnswer[] = [
    ...copyAnswers(instance.input).map((answer) => ({ strategy: "copy" as const, answer })),
    ...[...(common ? [common] : []), ...CONSTANT_ANSWERS].map((answer) => ({
      strategy: "constant" as const,
      answer,
    })),
  ];
  let best: FloorVerdict = { verdict: "INEXACT", answer: null };
  const reference = wordCounts(instance.reference);
  // Copies of a long input are hundreds of answers; where no copy could be near-exact, none is judged.
  const copies = copiesCouldMatch(instance, thresholds);
  for (const answer of answers) {
    if (answer.strategy === "copy" && !copies) continue;
    if (!couldBeNearExact(reference, wordCounts(answer.answer), thresholds)) continue;
    const verdict = judgeNoMemoryAnswer(instance, answer.answer, thresholds);
    if (RANK[verdict] > RANK[best.verdict]) best = { verdict, answer };
    if (best.verdict === "EXACT") break;
  }
  return best;
}

/**
 * The floor verdicts of a sample's instances: each instance's constant answer is the most common reference of
 * the other instances (leave-one-out, so an instance never gets its own reference for free).
 */
export function floorVerdicts<T extends FloorInstance>(
  instances: readonly T[],
  thresholds: HeuristicThresholds = DEFAULT_THRESHOLDS,
): FloorVerdict[] {
  const common = commonReferences(instances);
  return instances.map((instance, index) => floorVerdict(instance, common[index], thresholds));
}

/** Each instance's constant answer: the most common reference of the other instances (leave-one-out), or null. */
export function commonReferences(instances: readonly FloorInstance[]): (string | null)[] {
  const [top, second] = referenceCounts(instances.map((instance) => instance.reference));
  return instances.map((instance) => {
    // Without this instance, the top reference loses one; the second may then lead (on a tie the top stays).
    let common: string | null = top && top.count >= 2 ? top.text : null;
    if (top && normalizeLightly(instance.reference) === top.key) {
      const left = top.count - 1;
      const next = second && second.count > left ? second : left >= 2 ? top : second;
      common = next && (next === top ? left : next.count) >= 2 ? next.text : null;
    }
    return common;
  });
}

/** Every key a word's deletion of one letter leaves, and the word: two words one edit apart share one. */
function deletionKeys(word: string): string[] {
  const keys = [word];
  for (let i = 0; i < word.length; i += 1) keys.push(`${word.slice(0, i)}\u0000${word.slice(i + 1)}`);
  keys.push(...keys.slice(1).map((key) => key.replace("\u0000", "")));
  return keys;
}

/**
 * Whether any answer copied from the instance's input could be judged exact or near-exact by the default judge: an
 * upper bound, never a verdict. Two tokens "could match" when the judge could pair them under any of its
 * equivalences (the same form or stem, number, one edit, a shared WordNet synset). Every copied answer is a run of
 * the input's words, and every rule that makes an answer near-exact needs more than the input can give it:
 * - containment, a leading reference or the same form need every reference word matched;
 * - ROUGE-L F1 t needs an alignment of L pairs with 2L / (r + L) >= t, and no copy aligns more pairs than the
 *   longest common subsequence of the reference and the whole input under "could match";
 * - the content rule needs, in the copy's scored start (a run of the input's words), content words that could match
 *   the reference's at its recall of them and at its precision over the run's own content words: no run of the
 *   input has them, or none does.
 * False only where every rule fails; true where a rule cannot be bounded so (a character-similarity threshold in
 * use). Linear in the texts but for the subsequence, which pairs only words that could match.
 */
export function copiesCouldMatch(
  instance: Pick<FloorInstance, "input" | "reference">,
  thresholds: HeuristicThresholds = DEFAULT_THRESHOLDS,
): boolean {
  if (thresholds.charSimilarity <= 1) return true;
  return runsCouldMatch(readingsOf(instance.reference), indexForMatching(instance.input), thresholds);
}

/** A text read as the judge reads it (each of its readings), with every key its tokens could be paired by. */
export interface MatchIndex {
  readings: readonly (readonly Token[])[];
  keys: ReadonlySet<string>;
}

/** The judge's two readings of a text: as written, and in canonical form without accents. */
function readingsOf(text: string): Token[][] {
  return [tokenize(text) as Token[], tokenize(withoutAccents(formCanonical(text))) as Token[]];
}

/** A text indexed once for `copiesCouldMatch`-style bounds (a demonstration's continuation, met by every instance). */
export function indexForMatching(text: string): MatchIndex {
  const readings = readingsOf(text);
  return { readings, keys: new Set(readings.flat().flatMap(keysOf)) };
}

/** Every key a token can be paired by: two tokens could match when they share one (cached by word). */
const KEY_CACHE = new Map<string, string[]>();
function keysOf(token: Token): string[] {
  const cacheKey = `${token.norm}\u0001${token.stem}\u0001${token.content ? 1 : 0}`;
  const cached = KEY_CACHE.get(cacheKey);
  if (cached) return cached;
  const keys = [`n:${token.norm}`, `s:${token.stem}`];
  const value = numberValue(token);
  if (value !== null) keys.push(`#:${value}`);
  // A typo pairs words of TYPO_TRANSPOSITION_MIN_LENGTH letters or more, never with digits (meaning.ts `typoOf`).
  if (token.norm.length >= TYPO_TRANSPOSITION_MIN_LENGTH && !/\d/.test(token.norm))
    for (const key of deletionKeys(token.norm)) keys.push(`d:${key}`);
  if (token.content) for (const key of synonymKeys(token.norm)) keys.push(`y:${key}`);
  if (KEY_CACHE.size > 200_000) KEY_CACHE.clear();
  KEY_CACHE.set(cacheKey, keys);
  return keys;
}

/**
 * Whether any run of the source's words could be judged exact or near-exact against the reference (the rules of
 * `copiesCouldMatch`): an answer that is one text is a run of itself, so this bounds a demonstration's
 * continuation too. False only where every rule fails.
 */
export function runsCouldMatch(
  referenceReadings: readonly (readonly Token[])[],
  source: MatchIndex,
  thresholds: HeuristicThresholds = DEFAULT_THRESHOLDS,
): boolean {
  if (thresholds.charSimilarity <= 1) return true;
  const matchable = (token: Token) => keysOf(token).some((key) => source.keys.has(key));
  // The reference in each of the judge's readings: the bound must fail in every one to rule the copies out.
  for (const [reading, reference] of referenceReadings.entries()) {
    const n = reference.length;
    if (n === 0) return true;
    const matched = reference.filter(matchable);
    if (matched.length === n) return true;
    const input = source.readings[reading];
    const rougeL = thresholds.rougeL;
    if (rougeL < 2 && matched.length >= (rougeL * n) / (2 - rougeL) - 1e-9) {
      const pairs = longestCouldMatchSubsequence(reference, input);
      if ((2 * pairs) / (n + pairs) >= rougeL - 1e-9) return true;
    }
    const content = reference.filter((token) => token.content);
    if (
      content.length >= SPAN_AWARE_CONTENT_RULE_MIN_WORDS &&
      matched.filter((token) => token.content).length >= thresholds.contentRecall * content.length - 1e-9 &&
      someRunHasContent(input, content, thresholds)
    )
      return true;
  }
  return false;
}

/**
 * The longest common subsequence of two token lists where two tokens pair when they share a key (Hunt and
 * Szymanski: the longest increasing run over the pairs that could match, each reference token's input positions
 * taken in decreasing order), in O(pairs x log n).
 */
function longestCouldMatchSubsequence(reference: readonly Token[], input: readonly Token[]): number {
  const positions = new Map<string, number[]>();
  for (const [j, token] of input.entries())
    for (const key of keysOf(token)) {
      const list = positions.get(key);
      if (list) list.push(j);
      else positions.set(key, [j]);
    }
  const tails: number[] = [];
  const seen = new Int32Array(input.length).fill(-1);
  for (const [i, token] of reference.entries()) {
    const candidates: number[] = [];
    for (const key of keysOf(token))
      for (const j of positions.get(key) ?? [])
        if (seen[j] !== i) {
          seen[j] = i;
          candidates.push(j);
        }
    candidates.sort((a, b) => b - a);
    for (const j of candidates) {
      // The first tail at or above j takes j (a strictly increasing run).
      let low = 0;
      let high = tails.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (tails[mid] < j) low = mid + 1;
        else high = mid;
      }
      tails[low] = j;
    }
  }
  return tails.length;
}

/**
 * Whether some run of the input's tokens holds content words that could match the reference's enough for the
 * content rule: at least its recall of the reference's content words, and at least its precision of the run's own
 * content words (two words of slack for where a copy's first words read differently). O(n) by prefix sums.
 */
function someRunHasContent(
  input: readonly Token[],
  referenceContent: readonly Token[],
  thresholds: HeuristicThresholds,
): boolean {
  const referenceKeys = new Set(referenceContent.flatMap(keysOf));
  const needed = thresholds.contentRecall * referenceContent.length - 2;
  // Prefix sums: M (content words that could match) and W = M - precision x C (C: content words).
  const m = [0];
  const w = [0];
  for (const token of input) {
    const could = token.content && keysOf(token).some((key) => referenceKeys.has(key));
    m.push(m[m.length - 1] + (could ? 1 : 0));
    w.push(w[w.length - 1] + (could ? 1 : 0) - (token.content ? thresholds.contentPrecision : 0));
  }
  // A run (i, j] passes when M(j) - M(i) >= needed and W(j) - W(i) >= -2; for each j, the best i is
  // the smallest W among the starts far enough back to hold `needed` matches.
  let start = 0;
  let lowest = Number.POSITIVE_INFINITY;
  for (let j = 1; j <= input.length; j += 1) {
    while (start < j && m[j] - m[start] >= needed) {
      lowest = Math.min(lowest, w[start]);
      start += 1;
    }
    if (w[j] - lowest >= -2 - 1e-9) return true;
  }
  return false;
}
