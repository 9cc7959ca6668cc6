import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { parseGeneratedOptions, quizInstanceText, quizOptions } from "../../../src/quiz/quiz-prompts";
import {
  countLetters,
  nonPreferredLetters,
  OPTION_LETTERS,
  optionProblems,
  parseQuizAnswer,
  quizRange,
} from "../../../src/quiz/quiz-range";
import { contaminationSummary, quizRanges } from "../../../src/report/analyses";
import { gridCells } from "../../../src/study/grid";
import { StudyMethod } from "../../../src/study/methods";
import { MemorizationSetting, RunKind } from "../../../src/study/settings";
import { TaskKind } from "../../../src/study/task";
import { describeWithSharedData, sharedFile } from "../../support/shared-data";

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
describe("the quiz's texts", () => {
  it("shows an instance as the released files do", () => {
    expect(
      quizInstanceText(TaskKind.NLI, { text: "A man sleeps.", secondText: "He rests.", label: "entailment" }),
    ).toBe("sentence1: A man sleeps.\nsentence2: He rests.\nlabel: entailment");
    expect(
      quizInstanceText(TaskKind.CLASSIFICATION, { text: "What is it?", secondText: null, label: "DESC" }),
    ).toBe("text: What is it?\nlabel: DESC");
  });

  it("reads options on their own lines or after the letter, and leaves out what is missing", () => {
    const answer = "A)\nfirst one\nsecond line\n\nB) second\n\n(C) third\n\nD)\nfourth\n---\n";
    expect(parseGeneratedOptions(answer)).toEqual(["first one\nsecond line", "second", "third", "fourth"]);
    expect(parseGeneratedOptions("A)\none\n\nC)\nthree")).toEqual(["one", "three"]);
    expect(parseGeneratedOptions("Sure! Here they are")).toEqual([]);
    // A repeated letter gives a fifth option, which the checks refuse.
    expect(parseGeneratedOptions("A) a\nA) b\nB) c\nC) d\nD) e")).toHaveLength(5);
  });

  it("puts the original in place of the perturbation at a compensator's letter, as the authors' mapping", () => {
    const perturbations = ["p1", "p2", "p3", "p4"];
    expect(quizOptions(perturbations, "orig", null)).toEqual(perturbations);
    expect(quizOptions(perturbations, "orig", "C")).toEqual(["p1", "p2", "orig", "p4"]);
  });

  it("puts option generation, the detector and four compensators in the grid, once per sample", () => {
    const cells = gridCells([{ shotCounts: [0, 25] }], {
      kinds: [RunKind.MEMORIZATION, RunKind.PERFORMANCE],
      settings: [MemorizationSetting.ONLY_SEGMENT_PAIRS],
      methods: [StudyMethod.GUIDED_GENERAL, StudyMethod.QUIZ],
      performanceRepeats: 3,
      memorizationMaxOutputTokens: 100,
      performanceMaxOutputTokens: 10,
    });
    // Without REPLICATION: only Algorithm 1's two settings (no performance, not the other settings).
    expect(cells.map((cell) => [cell.kind, cell.setting ?? cell.quizPosition ?? null, cell.shots])).toEqual([
      [RunKind.MEMORIZATION, MemorizationSetting.FULL_INFORMATION, 0],
      [RunKind.MEMORIZATION, MemorizationSetting.GENERAL_INSTRUCTION, 0],
      [RunKind.MEMORIZATION, MemorizationSetting.FULL_INFORMATION, 25],
      [RunKind.MEMORIZATION, MemorizationSetting.GENERAL_INSTRUCTION, 25],
      [RunKind.QUIZ_OPTIONS, null, 0],
      [RunKind.QUIZ, null, 0],
      [RunKind.QUIZ, "A", 0],
      [RunKind.QUIZ, "B", 0],
      [RunKind.QUIZ, "C", 0],
      [RunKind.QUIZ, "D", 0],
    ]);
  });
});

describe("the quiz's result per sample", () => {
  const samples = new Map([
    ["s1", { sampleId: "s1", sampleName: null, sampleSeed: "1", dataset: "rte", split: "train" }],
  ]);
  const set = {
    optionSetId: "o1",
    sampleId: "s1",
    provider: "p",
    model: "g",
    templateVersion: 1,
    maxGenerations: 3,
    instances: 100,
    valid: 100,
    givenUp: 0,
    rejectedGenerations: 4,
    originalAmongOptions: 3,
  };
  const run = (position: "A" | "B" | "C" | "D" | null, letters: Record<string, number>) => ({
    sampleId: "s1",
    optionSetId: "o1",
    position,
    runEnded: true,
    letters: { A: 0, B: 0, C: 0, D: 0, E: 0, unreadable: 0, ...letters },
    failed: 0,
    waiting: 0,
  });

  it("computes the released example's range from the counts of memicl's runs", () => {
    // GPT-4 on RTE (the authors' released report): detector 16/0/0/1/83; compensators A 57, B 60, C 59, D 53.
    const [row] = quizRanges(
      [
        run(null, { A: 16, D: 1, E: 83 }),
        run("A", { A: 57, E: 43 }),
        run("B", { A: 6, B: 60, E: 34 }),
        run("C", { A: 5, C: 59, E: 36 }),
        run("D", { D: 53, E: 47 }),
      ],
      [set],
      samples,
    );
    expect(row).toMatchObject({
      nonPreferred: ["A", "B", "C", "D"],
      best: "B",
      second: "C",
      upper: 0.6,
      lower: 0.6,
    });
    expect(row.compensators.map((compensator) => compensator.hits)).toEqual([57, 60, 59, 53]);
    expect(row.complete).toBe(true);
  });

  it("uses only the non-preferred letters' compensators, and says when one is left", () => {
    const [row] = quizRanges(
      [
        run(null, { A: 40, B: 30, C: 5, D: 25 }),
        run("A", { A: 90 }),
        run("B", { B: 80 }),
        run("C", { C: 50, E: 50 }),
        run("D", { D: 70 }),
      ],
      [set],
      samples,
    );
    expect(row.nonPreferred).toEqual(["C"]);
    expect(row).toMatchObject({ best: "C", second: null, upper: 0.5 });
    expect(row.lower).toBeCloseTo(45 / 95, 12);
    expect(row.notes.join(" ")).toMatch(/one non-preferred letter/);
  });

  it("says when every answer is E, and when the quiz is not complete", () => {
    const [row] = quizRanges([run(null, { E: 100 }), run("A", { E: 100 })], [set], samples);
    expect(row.upper).toBe(0);
    expect(row.notes.join(" ")).toMatch(/every bias detector answer was E/);
    expect(row.notes.join(" ")).toMatch(/never chosen/);
    expect(row.notes.join(" ")).toMatch(/not complete/);
  });

  it("reads no preference from a quiz with no usable options", () => {
    const empty = { ...set, valid: 0, givenUp: 100 };
    const [row] = quizRanges(
      [run(null, {}), run("A", {}), run("B", {}), run("C", {}), run("D", {})],
      [empty],
      samples,
    );
    const notes = row.notes.join(" ");
    expect(notes).not.toMatch(/every letter A-D was preferred/);
    expect(notes).toMatch(/no instance has usable options: nothing was quizzed/);
  });

  it("sets each method's evidence side by side, and null where it did not run", () => {
    const [quizRow] = quizRanges([run(null, { E: 100 })], [set], samples);
    const rows = contaminationSummary(
      {
        contamination: [],
        floors: [],
        guidedGeneral: [],
        quiz: [quizRow],
        runs: [{ ids: ["r1"], sampleId: "s1", kind: RunKind.QUIZ, setting: null, shots: 0 }],
      },
      samples,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ dataset: "rte", split: "train", timeTravel: null, replication: null });
    expect(rows[0].quiz).toMatchObject({ runIds: ["r1"] });
    expect(
      contaminationSummary({ contamination: [], floors: [], guidedGeneral: [], quiz: [], runs: [] }, samples),
    ).toEqual([]);
  });
});

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
      // memicl's option parser reads the generator's raw answer into the same four options the authors' files hold.
      expect(parseGeneratedOptions(rows[0].generated_options)).toEqual(
        [rows[0].option_a, rows[0].option_b, rows[0].option_c, rows[0].option_d].map((option) =>
          option.trim(),
        ),
      );
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
