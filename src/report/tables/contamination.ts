import { Field, Float, Int, ObjectType } from "type-graphql";
import { MemorizationSetting } from "../../study/settings";
import { SampleScoped } from "./scope";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    contamination: ContaminationRow[];
  }
}

@ObjectType({
  description:
    "The original method's verdict, applied as it was defined: on a fixed 10-instance subset of the sample " +
    "(chosen from the sample's seed), contaminated when at least one is exact or at least two are near-exact. " +
    "Beside it, the rate over every judged instance of the sample with its 95% Wilson interval.",
  implements: SampleScoped,
})
export class ContaminationRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, {
    description: "Instances of the subset judged in this cell (10 unless some are unjudged).",
  })
  subsetJudged: number;

  @Field(() => Int, { description: "Exact instances in the subset." })
  exact: number;

  @Field(() => Int, { description: "Near-exact instances in the subset." })
  nearExact: number;

  @Field({ description: "At least one exact or at least two near-exact in the subset." })
  contaminated: boolean;

  @Field(() => Int, { description: "Judged instances of the whole sample in this cell." })
  instances: number;

  @Field(() => Int, { description: "Of those, exact or near-exact." })
  memorizedInstances: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;
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
