import { ContaminationRow } from "../rows/contamination";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, sampleLabel } from "./table";

export { ContaminationRow };

declare module "./table" {
  interface ReportTables {
    contamination: ContaminationRow[];
  }
}

export const contaminationTable = defineTable<"contamination">({
  field: "contamination",
  type: () => [ContaminationRow],
  compute: async (inputs) => (await inputs.read("contamination")).rows,
  markdown: {
    title:
      "Contamination verdict (the original rule on a fixed, seeded 10-instance subset: at least one exact or two near-exact)",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "setting",
          "k",
          "subset judged",
          "exact",
          "near-exact",
          "contaminated",
          "whole sample: memorized / judged",
          "rate",
          "95% CI",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.shots,
          row.subsetJudged,
          row.exact,
          row.nearExact,
          row.contaminated ? "yes" : "no",
          `${row.memorizedInstances} / ${row.instances}`,
          pct(row.rate),
          interval(row.ciLow, row.ciHigh),
        ]),
      ),
  },
  statistics: ["contaminated", "subset_exact", "subset_near_exact", "rate"],
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, judge: EFFECTIVE_JUDGE };
      const subset = { denominator: row.subsetJudged };
      emit("contaminated", scope, row.contaminated, subset);
      emit("subset_exact", scope, row.exact, { numerator: row.exact, ...subset });
      emit("subset_near_exact", scope, row.nearExact, { numerator: row.nearExact, ...subset });
      emit("rate", scope, row.rate, {
        numerator: row.memorizedInstances,
        denominator: row.instances,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
      });
    }
  },
});
