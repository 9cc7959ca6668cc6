// The no-memory floor: what the judge says of answers a model could give without any memory of the instance.
// Pure.

import {
  couldBeNearExact,
  DEFAULT_THRESHOLDS,
  HeuristicThresholds,
  judgeHeuristically,
  wordCounts,
} from "./heuristic-judge";
import { normalizeLightly } from "./similarity";
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
  for (const answer of answers) {
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
