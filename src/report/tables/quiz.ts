import { QuizCompensatorRow, QuizRangeRow } from "../rows/quiz";
import { defineTable, markdownTable, num, pct, sampleLabel } from "./table";

export { QuizCompensatorRow, QuizRangeRow };

declare module "./table" {
  interface ReportTables {
    quiz: QuizRangeRow[];
  }
}

export const quizTable = defineTable<"quiz">({
  field: "quiz",
  type: () => [QuizRangeRow],
  description: "The Data Contamination Quiz per sample (QUIZ method).",
  compute: (inputs) => inputs.read("quiz"),
  markdown: {
    title:
      "Data Contamination Quiz (bias detector, then the original at each letter; range over the non-preferred letters)",
    body: (rows) =>
      rows.length === 0
        ? "No quiz in this experiment (methods: QUIZ)."
        : markdownTable(
            [
              "dataset",
              "sample",
              "generator",
              "n",
              "detector A/B/C/D/E",
              "non-preferred",
              "hits A/B/C/D",
              "range",
              "kappa",
              "options given up",
              "original among options",
              "notes",
            ],
            rows.map((row) => [
              row.dataset,
              sampleLabel(row),
              `${row.generatorProvider}/${row.generatorModel}`,
              row.instances,
              row.bias.join("/"),
              row.nonPreferred.join(", "),
              row.compensators.map((compensator) => compensator.hits).join("/"),
              row.lower === null ? "" : `[${pct(row.lower)}, ${pct(row.upper)}]`,
              num(row.kappa),
              row.optionsGivenUp,
              row.originalAmongOptions,
              row.notes.join("; "),
            ]),
          ),
  },
  statistics: [
    "upper",
    "lower",
    "kappa",
    "options_given_up",
    "original_among_options",
    "bias_share",
    "compensator_hits",
  ],
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, group: `options=${row.optionSetId}` };
      const n = { denominator: row.instances };
      const best = row.compensators.find((compensator) => compensator.letter === row.best);
      emit("upper", scope, row.upper, { numerator: best?.hits ?? null, ...n });
      emit("lower", scope, row.lower, n);
      emit("kappa", scope, row.kappa, n);
      emit("options_given_up", scope, row.optionsGivenUp, {
        numerator: row.optionsGivenUp,
        denominator: row.sampledInstances,
      });
      emit("original_among_options", scope, row.originalAmongOptions, {
        numerator: row.originalAmongOptions,
        denominator: row.rejectedGenerations + row.instances,
      });
      for (const [index, count] of row.bias.entries())
        emit(
          "bias_share",
          { ...scope, group: `letter=${"ABCDE"[index]}` },
          row.instances ? count / row.instances : null,
          { numerator: count, ...n },
        );
      for (const compensator of row.compensators)
        emit("compensator_hits", { ...scope, group: `letter=${compensator.letter}` }, compensator.hits, n);
    }
  },
});
