// The row types of the report table in ../tables/memorized-vs-not.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationSetting } from "../../study/settings";
import { HOLM, SampleScoped } from "../tables/scope";

@ObjectType()
export class AccuracyGroup {
  @Field(() => Int, { description: "Instances in the group." })
  instances: number;

  @Field(() => Int, { description: "Performance completions of those instances (all repeats)." })
  n: number;

  @Field(() => Int, { description: "Of those completions, the correct ones." })
  correct: number;

  @Field(() => Float, { nullable: true, description: "correct / n: accuracy over every repeat." })
  accuracy: number | null;

  @Field(() => Int, {
    description:
      "Instances correct on the majority of their repeats (a tie counts as not correct): the unit of the " +
      "difference, its interval and the test.",
  })
  correctInstances: number;
}

@ObjectType({
  description:
    "Performance accuracy (same sample, same k, all repeats) on the instances that are memorized (exact or " +
    "near-exact) in this setting and k vs those that are not, with the difference, its 95% Newcombe interval and " +
    "Fisher's exact test, all three over instances (each counted once: correct on the majority of its repeats), " +
    "not completions: at temperature 0 the repeats agree, and counting them as independent made the test reject " +
    "a true null 24% of the time at alpha 0.05. An instance with several judged completions in the cell is " +
    "memorized when at least half of them are. Unjudged instances are in neither group.",
  implements: SampleScoped,
})
export class MemorizedVsNotRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => AccuracyGroup)
  memorized: AccuracyGroup;

  @Field(() => AccuracyGroup)
  notMemorized: AccuracyGroup;

  @Field(() => Float, {
    nullable: true,
    description: "Share of instances correct, memorized minus not memorized (see correctInstances).",
  })
  difference: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiLow: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiHigh: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "Fisher's exact test (two-sided) of correct/wrong x memorized/not, over instances.",
  })
  pValue: number | null;

  @Field(() => Float, { nullable: true, description: HOLM })
  pValueHolm: number | null;
}
