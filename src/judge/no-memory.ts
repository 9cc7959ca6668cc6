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
import { formCanonical } from "./meaning";
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
): number | null {
  const reference = wordCounts(instance.reference);
  for (const [index, demonstration] of demonstrations.entries()) {
    if (!couldBeNearExact(reference, counts[index], thresholds)) continue;
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
 * upper bound, never a verdict. Each reference word the input could match under any of the judge's equivalences
 * (the same form or stem, number, one edit, a shared WordNet synset) counts as matched; every rule that makes an
 * answer near-exact needs more of them than that (all of them for containment, a leading reference or the same
 * form; ROUGE-L F1 t needs t/(2-t) of the reference's words; the content rule its recall of content words). False
 * only where none of the rules could be met; true where a rule cannot be bounded so (a character-similarity
 * threshold in use).
 */
export function copiesCouldMatch(
  instance: Pick<FloorInstance, "input" | "reference">,
  thresholds: HeuristicThresholds = DEFAULT_THRESHOLDS,
): boolean {
  if (thresholds.charSimilarity <= 1) return true;
  const forms = (text: string) => [tokenize(text), tokenize(withoutAccents(formCanonical(text)))];
  const inputTokens = forms(instance.input).flat();
  const norms = new Set<string>();
  const stems = new Set<string>();
  const numbers = new Set<string>();
  const keys = new Set<string>();
  const synsets = new Set<string>();
  for (const token of inputTokens) {
    if (norms.has(token.norm)) continue;
    norms.add(token.norm);
    stems.add(token.stem);
    const value = numberValue(token);
    if (value !== null) numbers.add(value);
    for (const key of deletionKeys(token.norm)) keys.add(key);
    if (token.content) for (const key of synonymKeys(token.norm)) synsets.add(key);
  }
  const matchable = (token: Token) => {
    if (norms.has(token.norm) || stems.has(token.stem)) return true;
    const value = numberValue(token);
    if (value !== null && numbers.has(value)) return true;
    if (deletionKeys(token.norm).some((key) => keys.has(key))) return true;
    for (const key of synonymKeys(token.norm)) if (synsets.has(key)) return true;
    return false;
  };
  // The reference in each of the judge's readings: the bound must fail in every one to rule the copies out.
  for (const reference of forms(instance.reference)) {
    const n = reference.length;
    if (n === 0) return true;
    const matched = reference.filter(matchable);
    if (matched.length === n) return true;
    const rougeL = thresholds.rougeL;
    if (rougeL < 2 && matched.length >= (rougeL * n) / (2 - rougeL) - 1e-9) return true;
    const content = reference.filter((token) => token.content).length;
    if (
      content >= SPAN_AWARE_CONTENT_RULE_MIN_WORDS &&
      matched.filter((token) => token.content).length >= thresholds.contentRecall * content - 1e-9
    )
      return true;
  }
  return false;
}
