import { Field, Float, Int, ObjectType } from "type-graphql";
import { performanceVsZeroShot } from "../analyses";
import { SampleScoped } from "./scope";
import { defineTable, markdownTable, pct, pValue, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    performanceVsZeroShot: PerformanceComparisonRow[];
  }
}

@ObjectType({
  description:
    "In-context learning against zero-shot on performance, per sample and k > 0: the instances answered at both " +
    "k = 0 and k, each correct when more than half its repeats are, and McNemar's exact test on the discordant " +
    "ones. Raw p (outside the report's Holm family).",
  implements: SampleScoped,
})
export class PerformanceComparisonRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => Int, { description: "k (compared with k = 0)." })
  shots: number;

  @Field(() => Int, { description: "Instances answered at both k = 0 and k." })
  pairs: number;

  @Field(() => Int)
  bothCorrect: number;

  @Field(() => Int, { description: "Correct at k = 0 only." })
  onlyZeroShot: number;

  @Field(() => Int, { description: "Correct at k only." })
  onlyKShot: number;

  @Field(() => Int)
  neither: number;

  @Field(() => Float)
  accuracyZeroShot: number;

  @Field(() => Float)
  accuracyKShot: number;

  @Field(() => Float, { description: "accuracyKShot - accuracyZeroShot, over the same instances." })
  difference: number;

  @Field(() => Float, {
    nullable: true,
    description: "McNemar's exact test (two-sided); null with no discordant pair.",
  })
  pValue: number | null;
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
