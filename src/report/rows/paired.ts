// The row types of the report table in ../tables/paired.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationSetting } from "../../study/settings";
import { HOLM, SampleScoped } from "../tables/scope";

@ObjectType({
  description:
    "A paired comparison of memorization (exact or near-exact) on the same instances in two cells of one " +
    "sample: two settings at one k, or one setting at k = 0 and at k. McNemar's exact test on the discordant " +
    "instances. An instance with several judged completions in a cell is memorized when at least half are.",
  implements: SampleScoped,
})
export class PairedComparisonRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  settingA: MemorizationSetting;

  @Field(() => Int)
  shotsA: number;

  @Field(() => MemorizationSetting)
  settingB: MemorizationSetting;

  @Field(() => Int)
  shotsB: number;

  @Field(() => Int, { description: "Instances judged in both cells." })
  pairs: number;

  @Field(() => Int)
  bothMemorized: number;

  @Field(() => Int)
  onlyA: number;

  @Field(() => Int)
  onlyB: number;

  @Field(() => Int)
  neither: number;

  @Field(() => Float, { nullable: true })
  rateA: number | null;

  @Field(() => Float, { nullable: true })
  rateB: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "rateA - rateB over the same instances (guided against general: FULL_INFORMATION - GENERAL_INSTRUCTION).",
  })
  difference: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "McNemar's exact test (two-sided); null with no discordant pair.",
  })
  pValue: number | null;

  @Field(() => Float, { nullable: true, description: HOLM })
  pValueHolm: number | null;
}
