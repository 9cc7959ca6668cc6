import { performanceVsZeroShot } from "../analyses";
import { PerformanceComparisonRow } from "../rows/performance-vs-zero-shot";
import { defineTable, markdownTable, pct, pValue, sampleLabel } from "./table";

export { PerformanceComparisonRow };

declare module "./table" {
  interface ReportTables {
    performanceVsZeroShot: PerformanceComparisonRow[];
  }
}

export const performanceVsZeroShotTable = defineTable<"performanceVsZeroShot">({
  field: "performanceVsZeroShot",
  type: () => [PerformanceComparisonRow],
  description: "Performance at each k against k = 0 on the same instances (McNemar, raw p).",
  compute: async (inputs) =>
    performanceVsZeroShot(await inputs.instancePerformance(), await inputs.samples()),
  markdown: {
    title: "Performance with k demonstrations against zero-shot, on the same instances (McNemar, raw p)",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "k",
          "pairs",
          "accuracy k=0",
          "accuracy k",
          "difference",
          "only k=0",
          "only k",
          "p",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.shots,
          row.pairs,
          pct(row.accuracyZeroShot),
          pct(row.accuracyKShot),
          pct(row.difference),
          row.onlyZeroShot,
          row.onlyKShot,
          pValue(row.pValue),
        ]),
      ),
  },
  statistics: ["difference", "mcnemar_p", "accuracy_zero_shot", "accuracy_k_shot"],
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, otherShots: 0 };
      const pairs = { denominator: row.pairs };
      emit("difference", scope, row.difference, pairs);
      emit("mcnemar_p", scope, row.pValue, {
        numerator: row.onlyKShot,
        denominator: row.onlyKShot + row.onlyZeroShot,
      });
      emit("accuracy_zero_shot", scope, row.accuracyZeroShot, pairs);
      emit("accuracy_k_shot", scope, row.accuracyKShot, pairs);
    }
  },
});
