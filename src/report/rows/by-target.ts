// The row types of the report table in ../tables/by-target.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationSetting } from "../../study/settings";
import { SampleScoped } from "../tables/scope";

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
