import { Field, Float, Int, ObjectType } from "type-graphql";
import { MemorizationMeasure } from "../../study/measures";
import { MemorizationSetting } from "../../study/settings";
import { noMemoryFloor } from "../analyses";
import { SampleScoped } from "./scope";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    noMemoryFloor: NoMemoryFloorRow[];
  }
}

@ObjectType({
  description:
    "The no-memory floor of one memorization cell (sample x setting x k), a control computed without a model: " +
    "each judged instance counts once (the majority of its completions); it is within the floor when an answer " +
    "a model without memory could give (its input copied whole, by sentence or by clause; the sample's most " +
    "common other reference; '?' or '.') is judged exact or near-exact by the heuristic judge with its sibling " +
    "rule. Memorized above the floor: memorized, and not within the floor. Wilson intervals.",
  implements: SampleScoped,
})
export class NoMemoryFloorRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Judged instances of the cell." })
  instances: number;

  @Field(() => Int, { description: "Of those, memorized (exact or near-exact)." })
  memorized: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Int, { description: "Instances a no-memory answer gets exact or near-exact: the floor." })
  floorInstances: number;

  @Field(() => Int, { description: "Of the floor, by copying the input." })
  floorByCopy: number;

  @Field(() => Int, { description: "Of the floor, by a constant answer only." })
  floorByConstant: number;

  @Field(() => Int, {
    description: "Of the floor, only by copying a demonstration the k-shot prompt shows (floor-3 and later).",
  })
  floorByDemonstration: number;

  @Field(() => Int, { description: "Judged instances whose target is trivial (too short to tell memory)." })
  trivialInstances: number;

  @Field(() => Int, { description: "Non-trivial instances outside the floor: what a verdict is tested on." })
  eligibleInstances: number;

  @Field(() => Int, { description: "Of the eligible instances, memorized." })
  eligibleMemorized: number;

  @Field(() => Float, { nullable: true, description: "eligibleMemorized / eligibleInstances." })
  eligibleRate: number | null;

  @Field(() => Float, { nullable: true, description: "floorInstances / instances." })
  floorRate: number | null;

  @Field(() => Float, { nullable: true })
  floorCiLow: number | null;

  @Field(() => Float, { nullable: true })
  floorCiHigh: number | null;

  @Field(() => Int, { description: "Memorized instances not within the floor." })
  aboveFloor: number;

  @Field(() => Float, { nullable: true, description: "aboveFloor / instances: memorized above the floor." })
  aboveFloorRate: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiLow: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiHigh: number | null;

  @Field({ description: "The floor's rule (its no-memory answers), e.g. floor-1." })
  floorVersion: string;
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
