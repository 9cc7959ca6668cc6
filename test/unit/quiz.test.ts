import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import {
  countLetters,
  nonPreferredLetters,
  OPTION_LETTERS,
  optionProblems,
  parseQuizAnswer,
  quizRange,
} from "../../src/quiz/quiz-range";
import { describeWithSharedData, sharedFile } from "../support/shared-data";

describe("the Data Contamination Quiz's statistics", () => {
  it("reads the first standalone capital letter, never the article", () => {
    expect(["B", "B)", "Option C", "(D) the third", "a E", "none", "", null].map(parseQuizAnswer)).toEqual([
      "B",
      "B",
      "C",
      "D",
      "E",
      null,
      null,
      null,
    ]);
  });

  it("finds the non-preferred letters at chance among five, all four when none is", () => {
    const bias = { A: 16, B: 0, C: 0, D: 1, E: 83 };
    expect(nonPreferredLetters(bias, 100)).toEqual(["A", "B", "C", "D"]);
    expect(nonPreferredLetters({ A: 30, B: 20, C: 19, D: 31, E: 0 }, 100)).toEqual(["C"]);
    expect(nonPreferredLetters({ A: 25, B: 25, C: 25, D: 25, E: 0 }, 100)).toEqual(["A", "B", "C", "D"]);
  });

  it("gives the range, and kappa alone with one quizzed letter", () => {
    const bias = { A: 16, B: 0, C: 0, D: 1, E: 83 };
    const range = quizRange({ A: 57, B: 60, C: 59, D: 53 }, bias, 100)!;
    expect(range).toMatchObject({ best: "B", second: "C", upper: 0.6, lower: 0.6 });
    const one = quizRange({ C: 10 }, { A: 0, B: 0, C: 2, D: 0, E: 98 }, 100)!;
    expect(one.lower).toBeCloseTo(8 / 98, 12);
    expect(one.notes.join()).toMatch(/one non-preferred letter/);
    expect(quizRange({}, bias, 100)).toBeNull();
  });

  it("refuses an option set holding the original, a repeat, or not four options", () => {
    const original = "The cat sat on the mat.";
    expect(
      optionProblems(original, [
        "The dog sat on the mat.",
        "A cat sat on the mat.",
        "The cat lay on the mat.",
        "The cat sat on the rug.",
      ]),
    ).toEqual([]);
    expect(
      optionProblems(original, [
        "the cat sat on the mat",
        "A cat sat on the mat.",
        "The cat lay on the mat.",
        "The cat sat on the rug.",
      ]),
    ).toEqual(["option A is the original instance"]);
    expect(optionProblems(original, ["The dog sat on the mat.", "The dog sat on the mat!"])).toEqual([
      "2 options, not 4",
      "option B repeats option A",
    ]);
    expect(
      optionProblems(original, [
        "Something else entirely here now",
        "A cat sat on the mat.",
        "The cat lay on the mat.",
        "The cat sat on the rug.",
      ]),
    ).toEqual(["option A is not a word-level edit of the original"]);
  });
});

const RELEASED = sharedFile("dcq-released");

/** Every released result: the published range recomputed from the per-instance answers. */
describeWithSharedData("the released quiz results, reproduced", () => {
  const cases = fs.existsSync(RELEASED)
    ? fs
        .readdirSync(RELEASED, { withFileTypes: true })
        .filter((model) => model.isDirectory())
        .flatMap((model) =>
          fs
            .readdirSync(path.join(RELEASED, model.name))
            .map((partition) => path.join(RELEASED, model.name, partition)),
        )
    : [];

  it("has the released files", () => {
    expect(cases.length).toBeGreaterThanOrEqual(8);
  });

  it.each(cases.map((dir) => [path.relative(RELEASED, dir), dir]))(
    "%s: the published range, within 0.01 percentage points",
    (_name, dir) => {
      const files = fs.readdirSync(dir);
      const report = fs.readFileSync(
        path.join(dir, files.find((f) => f.startsWith("data_contamination_report"))!),
        "utf8",
      );
      const published = /Detected Contamination Level: \[([\d.]+)%, ([\d.]+)%\]/.exec(report)!;
      const rows = parse(fs.readFileSync(path.join(dir, files.find((f) => f.endsWith(".csv"))!), "utf8"), {
        columns: true,
      }) as Record<string, string>[];
      const bias = countLetters(rows.map((row) => row.bdq_results));
      const quizzed = nonPreferredLetters(bias, rows.length);
      // The letters the authors quizzed are the ones with a compensator column: the same as ours.
      expect(quizzed).toEqual(
        OPTION_LETTERS.filter((letter) => `bcq_results_for_position_${letter.toLowerCase()}` in rows[0]),
      );
      const hits = Object.fromEntries(
        quizzed.map((letter) => [
          letter,
          rows.filter(
            (row) => parseQuizAnswer(row[`bcq_results_for_position_${letter.toLowerCase()}`]) === letter,
          ).length,
        ]),
      );
      const range = quizRange(hits, bias, rows.length)!;
      expect(Math.abs(range.lower * 100 - Number(published[1]))).toBeLessThanOrEqual(0.01);
      expect(Math.abs(range.upper * 100 - Number(published[2]))).toBeLessThanOrEqual(0.01);
      // The defect the validation is for: generated options equal to the original instance.
      const withOriginal = rows.filter((row) =>
        optionProblems(row.instance, [row.option_a, row.option_b, row.option_c, row.option_d]).some((p) =>
          p.endsWith("is the original instance"),
        ),
      ).length;
      // In these released files one "perturbation" is the original itself in most rows (100% here after
      // normalisation): such a set is refused before any quiz call, and this is how often.
      expect(withOriginal / rows.length).toBeGreaterThanOrEqual(0.79);
      defects.set(path.relative(RELEASED, dir), withOriginal / rows.length);
    },
  );

  const defects = new Map<string, number>();
  afterAll(() => {
    if (defects.size > 0)
      console.log(
        `options equal to the original, share of rows: ${[...defects].map(([name, share]) => `${name} ${(share * 100).toFixed(0)}%`).join(", ")}`,
      );
  });
});
