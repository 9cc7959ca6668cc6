import { Field, Float, Int, ObjectType } from "type-graphql";
import { MemorizationMeasure } from "../../study/measures";
import { MemorizationSetting } from "../../study/settings";
import { memorizationByTarget } from "../analyses";
import { SampleScoped } from "./scope";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    memorizationByTarget: TargetGroupRow[];
  }
}

@ObjectType({
  description:
    "Memorization per sample, setting and k within one group of instances: their label, or their reference's " +
    "length in words (lower case, punctuation dropped). Each instance once (the majority of its completions), " +
    "Wilson intervals.",
  implements: SampleScoped,
})
export class TargetGroupRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field({ description: "LABEL or REFERENCE_LENGTH." })
  groupBy: string;

  @Field({ description: "The label, or the length bucket (0-2, 3-5, 6-10, 11-20, 21+ words)." })
  group: string;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  memorized: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;
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
