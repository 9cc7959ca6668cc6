import { MemorizationMeasure } from "../../study/measures";
import { noMemoryFloor } from "../analyses";
import { NoMemoryFloorRow } from "../rows/no-memory-floor";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, sampleLabel } from "./table";

export { NoMemoryFloorRow };

declare module "./table" {
  interface ReportTables {
    noMemoryFloor: NoMemoryFloorRow[];
  }
}

export const noMemoryFloorTable = defineTable<"noMemoryFloor">({
  field: "noMemoryFloor",
  type: () => [NoMemoryFloorRow],
  description:
    "The no-memory floor beside each memorization rate (a control): what copying the input or a constant " +
    "answer would score, and the rate memorized above it, per sample, setting and k.",
  compute: async (inputs) =>
    noMemoryFloor(
      await inputs.instances(),
      await inputs.floors(),
      await inputs.samples(),
      inputs.floorVersion,
      (await inputs.targets()).trivial,
    ),
  markdown: {
    title:
      "Control: the no-memory floor (copying the input or a constant answer; each instance once, Wilson)",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "setting",
          "k",
          "instances",
          "rate",
          "floor",
          "floor 95% CI",
          "by copy",
          "by constant",
          "above floor",
          "above floor 95% CI",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.shots,
          row.instances,
          pct(row.rate),
          pct(row.floorRate),
          interval(row.floorCiLow, row.floorCiHigh),
          row.floorByCopy,
          row.floorByConstant,
          pct(row.aboveFloorRate),
          interval(row.aboveFloorCiLow, row.aboveFloorCiHigh),
        ]),
      ),
  },
  statistics: [
    "floor_rate",
    "above_floor_rate",
    "eligible_rate",
    "floor_by_copy",
    "floor_by_constant",
    "floor_by_demonstration",
    "trivial_left_out",
  ],
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT, judge: EFFECTIVE_JUDGE };
      emit("floor_rate", scope, row.floorRate, {
        numerator: row.floorInstances,
        denominator: row.instances,
        ciLow: row.floorCiLow,
        ciHigh: row.floorCiHigh,
      });
      emit("above_floor_rate", scope, row.aboveFloorRate, {
        numerator: row.aboveFloor,
        denominator: row.instances,
        ciLow: row.aboveFloorCiLow,
        ciHigh: row.aboveFloorCiHigh,
      });
      emit("eligible_rate", scope, row.eligibleRate, {
        numerator: row.eligibleMemorized,
        denominator: row.eligibleInstances,
      });
      emit("floor_by_copy", scope, row.floorByCopy, { denominator: row.instances });
      emit("floor_by_constant", scope, row.floorByConstant, { denominator: row.instances });
      emit("floor_by_demonstration", scope, row.floorByDemonstration, { denominator: row.instances });
      emit("trivial_left_out", scope, row.trivialInstances, { denominator: row.instances });
    }
  },
  formerNames: {
    "control.no_memory_floor": "floor_rate",
    "control.memorized_above_floor": "above_floor_rate",
    "control.eligible_rate": "eligible_rate",
  },
});
