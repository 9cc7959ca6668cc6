// The row types of the report table in ../tables/contamination.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationSetting } from "../../study/settings";
import { SampleScoped } from "../tables/scope";

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
