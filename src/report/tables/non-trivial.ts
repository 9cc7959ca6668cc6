import { Field, Float, Int, ObjectType } from "type-graphql";
import { MemorizationMeasure } from "../../study/measures";
import { MemorizationSetting } from "../../study/settings";
import { nonTrivialMemorization } from "../analyses";
import { SampleScoped } from "./scope";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    memorizationNonTrivial: NonTrivialMemorizationRow[];
  }
}

@ObjectType({
  description:
    "Memorization over the instances whose reference is not trivial (at least 3 words after lower-casing and " +
    "dropping punctuation), per sample, setting and k: each instance counts once (the majority of its judged " +
    "completions), with a Wilson interval; the trivial ones left out are counted.",
  implements: SampleScoped,
})
export class NonTrivialMemorizationRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Judged instances with a non-trivial reference." })
  instances: number;

  @Field(() => Int, { description: "Of those, memorized (exact or near-exact)." })
  memorized: number;

  @Field(() => Int, { description: "Judged instances left out because their reference is trivial." })
  trivialInstances: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;
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
