// The Data Contamination Quiz's result per sample: the bias detector quiz's letters, each bias compensator
// quiz's hits, and the detected contamination range with its edge cases said. Pure.

import {
  countLetters,
  LetterCounts,
  nonPreferredLetters,
  OPTION_LETTERS,
  OptionLetter,
  QUIZ_LETTERS,
  quizRange,
} from "../../quiz/quiz-range";
import type { QuizCompensatorRow, QuizRangeRow } from "../rows/quiz";
import { bySample, SampleInfo, sampleFields } from "./rows";

/** One quiz run's answers, counted (what report.sql.ts's `quizAnswers` returns). */
export interface QuizRunAnswers {
  sampleId: string;
  optionSetId: string;
  /** Where the original sat; null for the bias detector quiz. */
  position: OptionLetter | null;
  runEnded: boolean;
  /** Answers by letter; `unreadable` answered without a standalone A-E. */
  letters: LetterCounts & { unreadable: number };
  failed: number;
  waiting: number;
}

/** What the option set behind a sample's quiz holds (report.sql.ts's `quizOptionSets`). */
export interface OptionSetCounts {
  optionSetId: string;
  sampleId: string;
  provider: string;
  model: string;
  templateVersion: number;
  maxGenerations: number;
  /** Sampled instances of the sample. */
  instances: number;
  valid: number;
  givenUp: number;
  rejectedGenerations: number;
  /** Rejected generations that had the original among their options. */
  originalAmongOptions: number;
}

const zeroLetters = (): LetterCounts & { unreadable: number } => ({ ...countLetters([]) });

/**
 * Per sample quizzed: n is the instances with valid options (each was quizzed once per quiz); the detector's
 * counts decide the non-preferred letters (fewer than ceil(n / 5) answers); the range uses the compensator quizzes
 * of those letters only (memicl runs all four; the others are shown, not used).
 */
export function quizRanges(
  answers: readonly QuizRunAnswers[],
  sets: readonly OptionSetCounts[],
  samples: ReadonlyMap<string, SampleInfo & { split?: string }>,
): QuizRangeRow[] {
  const rows: QuizRangeRow[] = [];
  for (const set of sets) {
    const runs = answers.filter(
      (run) => run.optionSetId === set.optionSetId && run.sampleId === set.sampleId,
    );
    if (runs.length === 0) continue;
    const detector = runs.find((run) => run.position === null);
    const bias = detector?.letters ?? zeroLetters();
    const n = set.valid;
    const nonPreferred = detector ? nonPreferredLetters(bias, n) : [];
    // With no instance quizzed there is no preference to read: zero answers would "prefer" every letter.
    const preferredAll =
      detector !== undefined && n > 0 && OPTION_LETTERS.every((letter) => bias[letter] >= Math.ceil(n / 5));
    const compensators: QuizCompensatorRow[] = OPTION_LETTERS.flatMap((letter) => {
      const run = runs.find((candidate) => candidate.position === letter);
      if (!run) return [];
      return [
        {
          letter,
          nonPreferred: nonPreferred.includes(letter),
          hits: run.letters[letter],
          answers: QUIZ_LETTERS.map((answer) => run.letters[answer]),
          unreadable: run.letters.unreadable,
          failed: run.failed,
        },
      ];
    });
    const hits: Partial<Record<OptionLetter, number>> = {};
    for (const row of compensators) if (row.nonPreferred) hits[row.letter as OptionLetter] = row.hits;
    const range = quizRange(hits, bias, n);
    const notes = [...(range?.notes ?? [])];
    if (preferredAll)
      notes.push(
        "every letter A-D was preferred in the bias detector quiz: all four are used, as the authors' code does",
      );
    if (detector && bias.E === n && n > 0)
      notes.push("every bias detector answer was E (none of the options)");
    if (n === 0)
      notes.push("no instance has usable options: nothing was quizzed, so there is no range to read");
    if (set.givenUp > 0)
      notes.push(
        `${set.givenUp} instance(s) had no usable options after ${set.maxGenerations} generation(s): not quizzed`,
      );
    const unreadable = runs.reduce((sum, run) => sum + run.letters.unreadable, 0);
    if (unreadable > 0)
      notes.push(`${unreadable} answer(s) UNREADABLE (no standalone A-E): counted as no hit`);
    const failed = runs.reduce((sum, run) => sum + run.failed, 0);
    if (failed > 0) notes.push(`${failed} quiz call(s) failed: counted as no hit`);
    const complete = runs.every((run) => run.runEnded && run.waiting === 0) && runs.length === 5;
    if (!complete) notes.push("the quiz is not complete: its range may still move");
    const info = samples.get(set.sampleId);
    rows.push({
      dataset: info?.dataset ?? "?",
      split: info?.split ?? null,
      ...sampleFields(info),
      optionSetId: set.optionSetId,
      generatorProvider: set.provider,
      generatorModel: set.model,
      optionTemplateVersion: set.templateVersion,
      instances: n,
      sampledInstances: set.instances,
      optionsGivenUp: set.givenUp,
      rejectedGenerations: set.rejectedGenerations,
      originalAmongOptions: set.originalAmongOptions,
      bias: QUIZ_LETTERS.map((letter) => bias[letter]),
      biasUnreadable: bias.unreadable,
      nonPreferred,
      compensators,
      upper: range?.upper ?? null,
      lower: range?.lower ?? null,
      kappa: range?.kappa ?? null,
      best: range?.best ?? null,
      second: range?.second ?? null,
      complete,
      notes,
    });
  }
  return rows.sort(bySample);
}
