// The Data Contamination Quiz's statistics (Golchin & Surdeanu): answers parsed, non-preferred letters, the
// detected contamination range, and the validation of generated options. Pure.

import { OPTION_LETTERS, OptionLetter, QUIZ_LETTERS, QuizLetter } from "../study/quiz-letters";

export { OPTION_LETTERS, type OptionLetter, QUIZ_LETTERS, type QuizLetter };

/**
 * A quiz answer's letter: the first standalone capital A-E ("B", "B)", "Option C", "(D) ..."), else null
 * (UNREADABLE). A lower-case "a" is the article, not an answer (the authors' counter took it for one).
 */
export function parseQuizAnswer(answer: string | null | undefined): QuizLetter | null {
  const match = /(?<![A-Za-z0-9])([A-E])(?![A-Za-z0-9])/.exec(answer ?? "");
  return match ? (match[1] as QuizLetter) : null;
}

export type LetterCounts = Record<QuizLetter, number>;

export function countLetters(
  answers: readonly (string | null | undefined)[],
): LetterCounts & { unreadable: number } {
  const counts = { A: 0, B: 0, C: 0, D: 0, E: 0, unreadable: 0 };
  for (const answer of answers) {
    const letter = parseQuizAnswer(answer);
    if (letter) counts[letter] += 1;
    else counts.unreadable += 1;
  }
  return counts;
}

/**
 * The letters the examined model does not prefer in the bias detector quiz: A-D chosen fewer times than
 * ceil(n / 5) (chance among five); all of A-D when none is (as the authors' code).
 */
export function nonPreferredLetters(bias: LetterCounts, instances: number): OptionLetter[] {
  const chance = Math.ceil(instances / 5);
  const letters = OPTION_LETTERS.filter((letter) => bias[letter] < chance);
  return letters.length > 0 ? letters : [...OPTION_LETTERS];
}

export interface QuizRange {
  /** The detected contamination level's upper end: hit of the best letter / n. */
  upper: number;
  /** Its lower end: max(kappa, hit_L2 / n), or kappa when only one letter was quizzed. */
  lower: number;
  kappa: number;
  /** The best letter (most hits, then least positional bias) and the second. */
  best: OptionLetter;
  second: OptionLetter | null;
  /** What was done at an edge of the method (one non-preferred letter, every answer E, ...). */
  notes: string[];
}

/**
 * The range from the counts: for each non-preferred letter L, hit_L is how often the model answered L when the
 * original instance sat at L (its bias compensator quiz), bias_L how often it answered L in the bias detector quiz.
 * Letters sorted by (-hit_L, bias_L); with the best one B and the second S: upper = hit_B / n,
 * kappa = (hit_B - bias_B) / (n - bias_B), lower = max(kappa, hit_S / n). Null without instances or quizzed letters.
 */
export function quizRange(
  hits: Partial<Record<OptionLetter, number>>,
  bias: LetterCounts,
  instances: number,
): QuizRange | null {
  const letters = OPTION_LETTERS.filter((letter) => hits[letter] !== undefined);
  if (instances === 0 || letters.length === 0) return null;
  const ranked = [...letters].sort((a, b) => hits[b]! - hits[a]! || bias[a] - bias[b]);
  const [best, second] = [ranked[0], ranked[1] ?? null];
  const notes: string[] = [];
  const upper = hits[best]! / instances;
  const kappa = instances > bias[best] ? (hits[best]! - bias[best]) / (instances - bias[best]) : 0;
  if (second === null) notes.push("one non-preferred letter: the lower end is kappa alone");
  if (hits[best] === 0) notes.push("the original was never chosen: no sign of contamination");
  return {
    upper,
    lower: second === null ? kappa : Math.max(kappa, hits[second]! / instances),
    kappa,
    best,
    second,
    notes,
  };
}

/** Words as the option check compares them: lower case, punctuation dropped. */
const words = (text: string) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .split(/\s+/)
    .filter(Boolean);

/** Word-level edit distance (insertions, deletions, substitutions of whole words). */
export function wordEditDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
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
 * Why a set of generated options cannot be used in a quiz (empty when it can): four options, pairwise distinct,
 * none equal to the original after normalisation, each a word-level edit of it within `maxEditShare` of its words.
 */
export function optionProblems(original: string, options: readonly string[], maxEditShare = 0.6): string[] {
  const problems: string[] = [];
  if (options.length !== 4) problems.push(`${options.length} options, not 4`);
  const originalWords = words(original);
  const keys = options.map((option) => words(option).join(" "));
  keys.forEach((key, index) => {
    const letter = OPTION_LETTERS[index] ?? String(index + 1);
    if (!key) problems.push(`option ${letter} is empty`);
    else if (key === originalWords.join(" ")) problems.push(`option ${letter} is the original instance`);
    else if (
      wordEditDistance(originalWords, key.split(" ")) >
      maxEditShare * Math.max(1, originalWords.length)
    )
      problems.push(`option ${letter} is not a word-level edit of the original`);
    if (keys.indexOf(key) !== index)
      problems.push(`option ${letter} repeats option ${OPTION_LETTERS[keys.indexOf(key)]}`);
  });
  return problems;
}
