// The row types of the report table in ../tables/icl-thresholds.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationSetting } from "../../study/settings";
import { SampleScoped } from "../tables/scope";

@ObjectType({ description: "One k of a threshold analysis: memorization there, and the performance gain." })
export class IclThresholdPoint {
  @Field(() => Int)
  shots: number;

  @Field(() => Float, { description: "Memorized share of the instances at this k (each once)." })
  memorizationRate: number;

  @Field(() => Float, { description: "Accuracy at k minus at k = 0, on the same instances." })
  gain: number;

  @Field(() => Float, { nullable: true, description: "McNemar's exact test of the gain, raw." })
  pValue: number | null;

  @Field({ description: "The gain is positive and p < 0.05." })
  significantGain: boolean;
}

@ObjectType({
  description:
    "The paper's threshold per sample and memorization setting: at each k > 0 the memorization rate beside the " +
    "performance gain over zero-shot; the lowest memorization rate with a significant gain (raw p < 0.05), and " +
    "the highest without one. Null where no k shows (or every k shows) a significant gain.",
  implements: SampleScoped,
})
export class IclThresholdRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => [IclThresholdPoint])
  points: IclThresholdPoint[];

  @Field(() => Float, { nullable: true })
  threshold: number | null;

  @Field(() => Float, { nullable: true })
  highestWithoutGain: number | null;
}
