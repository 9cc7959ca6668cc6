// The Data Contamination Quiz's texts: an instance as the quiz shows it, generated options parsed from a model's
// answer, and the options a quiz shows (the detector's perturbations, or the original at one letter). Pure.

import { appendTo } from "../common/collections";
import { OPTION_LETTERS, OptionLetter } from "../study/quiz-letters";
import { TaskKind } from "../study/task";

/**
 * An instance as the quiz shows it and asks perturbations of, in the layout of the authors' released files:
 * `sentence1: ...` / `sentence2: ...` / `label: ...` for NLI, `text: ...` / `label: ...` otherwise.
 */
export function quizInstanceText(
  taskKind: TaskKind,
  fields: { text: string; secondText: string | null; label: string },
): string {
  return taskKind === TaskKind.NLI
    ? `sentence1: ${fields.text}\nsentence2: ${fields.secondText ?? ""}\nlabel: ${fields.label}`
    : `text: ${fields.text}\nlabel: ${fields.label}`;
}

/**
 * The options in a generator's answer, in letter order: the text after each `A)` ... `D)` marker (on its own line
 * or starting one), up to the next marker; a letter missing or repeated leaves its place out, so the checks see
 * fewer (or more) than four.
 */
export function parseGeneratedOptions(answer: string): string[] {
  const markers = [...answer.matchAll(/^[ \t]*\(?([A-D])\)[ \t]*/gm)];
  const byLetter = new Map<string, string[]>();
  markers.forEach((marker, index) => {
    const start = marker.index + marker[0].length;
    const end = index + 1 < markers.length ? markers[index + 1].index : answer.length;
    const text = answer
      .slice(start, end)
      .replace(/\n-{3,}\s*$/, "")
      .trim();
    appendTo(byLetter, marker[1], text);
  });
  const options: string[] = [];
  for (const letter of OPTION_LETTERS) for (const text of byLetter.get(letter) ?? []) options.push(text);
  return options;
}

/**
 * The four options a quiz shows: the perturbations in their order (the bias detector quiz, `position` null), or
 * with the original in place of the perturbation at `position` (a bias compensator quiz, as the authors' mapping).
 */
export function quizOptions(
  perturbations: readonly string[],
  original: string,
  position: OptionLetter | null,
): string[] {
  return OPTION_LETTERS.map((letter, index) =>
    letter === position ? original : (perturbations[index] ?? ""),
  );
}
