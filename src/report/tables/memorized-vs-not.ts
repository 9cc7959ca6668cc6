import { memorizedVsNot } from "../analyses";
import { AccuracyGroup, MemorizedVsNotRow } from "../rows/memorized-vs-not";
import {
  defineTable,
  EFFECTIVE_JUDGE,
  holmSlot,
  interval,
  markdownTable,
  pct,
  pValue,
  sampleLabel,
} from "./table";

export { AccuracyGroup, MemorizedVsNotRow };

declare module "./table" {
  interface ReportTables {
    memorizedVsNotMemorized: MemorizedVsNotRow[];
  }
}

const FORMER = [
  "accuracy_memorized",
  "accuracy_not_memorized",
  "memorized_instances",
  "difference",
  "instance_accuracy_memorized",
  "instance_accuracy_not_memorized",
  "fisher_p",
  "fisher_p_holm",
] as const;

export const memorizedVsNotMemorizedTable = defineTable<"memorizedVsNotMemorized">({
  field: "memorizedVsNotMemorized",
  type: () => [MemorizedVsNotRow],
  compute: async (inputs) =>
    memorizedVsNot(await inputs.instances(), await inputs.instancePerformance(), await inputs.samples()),
  tests: {
    family: "memorized vs not: Fisher",
    slots: (rows) => rows.map((row) => holmSlot(row, "pValue", "pValueHolm")),
  },
  markdown: {
    title: "Accuracy on memorized vs non-memorized instances",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "setting",
          "k",
          "memorized (instances)",
          "correct / n",
          "accuracy",
          "not memorized (instances)",
          "correct / n",
          "accuracy",
          "difference",
          "95% CI (Newcombe)",
          "Fisher p",
          "Holm p",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.shots,
          row.memorized.instances,
          `${row.memorized.correct} / ${row.memorized.n}`,
          pct(row.memorized.accuracy),
          row.notMemorized.instances,
          `${row.notMemorized.correct} / ${row.notMemorized.n}`,
          pct(row.notMemorized.accuracy),
          pct(row.difference),
          interval(row.differenceCiLow, row.differenceCiHigh),
          pValue(row.pValue),
          pValue(row.pValueHolm),
        ]),
      ),
  },
  statistics: FORMER,
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, judge: EFFECTIVE_JUDGE };
      for (const [statistic, group] of [
        ["accuracy_memorized", row.memorized],
        ["accuracy_not_memorized", row.notMemorized],
      ] as const)
        emit(statistic, scope, group.accuracy, { numerator: group.correct, denominator: group.n });
      emit("memorized_instances", scope, row.memorized.instances, {
        numerator: row.memorized.instances,
        denominator: row.memorized.instances + row.notMemorized.instances,
      });
      emit("difference", scope, row.difference, { ciLow: row.differenceCiLow, ciHigh: row.differenceCiHigh });
      for (const [statistic, group] of [
        ["instance_accuracy_memorized", row.memorized],
        ["instance_accuracy_not_memorized", row.notMemorized],
      ] as const)
        emit(statistic, scope, group.instances ? group.correctInstances / group.instances : null, {
          numerator: group.correctInstances,
          denominator: group.instances,
        });
      emit("fisher_p", scope, row.pValue);
      emit("fisher_p_holm", scope, row.pValueHolm);
    }
  },
  formerNames: Object.fromEntries(FORMER.map((statistic) => [`memorized_vs_not.${statistic}`, statistic])),
});
