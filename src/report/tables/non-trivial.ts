import { MemorizationMeasure } from "../../study/measures";
import { nonTrivialMemorization } from "../analyses";
import { NonTrivialMemorizationRow } from "../rows/non-trivial";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, sampleLabel } from "./table";

export { NonTrivialMemorizationRow };

declare module "./table" {
  interface ReportTables {
    memorizationNonTrivial: NonTrivialMemorizationRow[];
  }
}

export const memorizationNonTrivialTable = defineTable<"memorizationNonTrivial">({
  field: "memorizationNonTrivial",
  type: () => [NonTrivialMemorizationRow],
  description: "Memorization over non-trivial references only (at least 3 words), per sample, setting and k.",
  compute: async (inputs) =>
    nonTrivialMemorization(
      await inputs.instances(),
      (await inputs.targets()).trivial,
      await inputs.samples(),
    ),
  markdown: {
    title: "Memorization over non-trivial references (at least 3 words; each instance once, Wilson)",
    body: (rows) =>
      markdownTable(
        ["dataset", "sample", "setting", "k", "instances", "memorized", "rate", "95% CI", "trivial left out"],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.shots,
          row.instances,
          row.memorized,
          pct(row.rate),
          interval(row.ciLow, row.ciHigh),
          row.trivialInstances,
        ]),
      ),
  },
  statistics: ["rate", "trivial_left_out"],
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT, judge: EFFECTIVE_JUDGE };
      emit("rate", scope, row.rate, {
        numerator: row.memorized,
        denominator: row.instances,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
      });
      emit("trivial_left_out", scope, row.trivialInstances);
    }
  },
  formerNames: {
    "memorization_non_trivial.rate": "rate",
    "memorization_non_trivial.trivial_left_out": "trivial_left_out",
  },
});
