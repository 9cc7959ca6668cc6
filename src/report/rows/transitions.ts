// The row types of the report table in ../tables/transitions.ts: what its analysis returns and GraphQL serves.

import { Field, Float, ID, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationSetting } from "../../study/settings";
import { SampleScoped } from "../tables/scope";

@ObjectType({
  description:
    "Of the instances near-exact at one k, how many are exact at a larger k (same sample and setting), with a " +
    "95% Wilson interval.",
  implements: SampleScoped,
})
export class TransitionRateRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  fromShots: number;

  @Field(() => Int)
  toShots: number;

  @Field(() => Int, { description: "Instances near-exact at fromShots and judged at toShots." })
  nearExact: number;

  @Field(() => Int, { description: "Of those, exact at toShots." })
  becameExact: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;

  @Field(() => Int, {
    description: "The baseline: instances inexact at fromShots and judged at toShots.",
  })
  inexact: number;

  @Field(() => Int, { description: "Of those, exact at toShots." })
  inexactBecameExact: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "inexactBecameExact / inexact: how often an answer becomes exact without having been near-exact.",
  })
  baselineRate: number | null;

  @Field(() => Float, { nullable: true })
  baselineCiLow: number | null;

  @Field(() => Float, { nullable: true })
  baselineCiHigh: number | null;

  @Field(() => Float, { nullable: true, description: "rate - baselineRate, with Newcombe's 95% interval." })
  difference: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiLow: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiHigh: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "Fisher's exact test (two-sided) between the rate and its baseline; raw, not in the report's Holm family.",
  })
  pValue: number | null;
}

@ObjectType({
  description: "An instance judged NEAR_EXACT at one k and EXACT at a larger k, in the same setting.",
})
export class TransitionRow {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  fromShots: number;

  @Field(() => Int)
  toShots: number;

  @Field(() => ID)
  sampledInstanceId: string;

  @Field()
  initialSegment: string;

  @Field()
  subsequentSegment: string;

  @Field(() => String, { nullable: true })
  nearExactOutput: string | null;

  @Field(() => String, { nullable: true })
  exactOutput: string | null;
}
