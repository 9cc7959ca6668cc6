import { MemorizationMeasure } from "../../study/measures";
import { memorizationByTarget } from "../analyses";
import { TargetGroupRow } from "../rows/by-target";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, sampleLabel } from "./table";

export { TargetGroupRow };

declare module "./table" {
  interface ReportTables {
    memorizationByTarget: TargetGroupRow[];
  }
}

const groupOf = (row: TargetGroupRow) => `${row.groupBy === "LABEL" ? "label" : "length"}=${row.group}`;

export const memorizationByTargetTable = defineTable<"memorizationByTarget">({
  field: "memorizationByTarget",
  type: () => [TargetGroupRow],
  description: "Memorization by label and by reference length, per sample, setting and k.",
  compute: async (inputs) =>
    memorizationByTarget(await inputs.instances(), (await inputs.targets()).targets, await inputs.samples()),
  markdown: {
    title: "Memorization by label and by reference length (each instance once, Wilson)",
    body: (rows) =>
      markdownTable(
        ["dataset", "sample", "setting", "k", "group", "instances", "memorized", "rate", "95% CI"],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.shots,
          groupOf(row).replace("=", " "),
          row.instances,
          row.memorized,
          pct(row.rate),
          interval(row.ciLow, row.ciHigh),
        ]),
      ),
  },
  statistics: ["rate"],
  flat: (rows, emit) => {
    for (const row of rows)
      emit(
        "rate",
        {
          ...row,
          measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
          judge: EFFECTIVE_JUDGE,
          group: groupOf(row),
        },
        row.rate,
        { numerator: row.memorized, denominator: row.instances, ciLow: row.ciLow, ciHigh: row.ciHigh },
      );
  },
});
