// The row types of the report table in ../tables/versus-control.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationSetting } from "../../study/settings";

@ObjectType({
  description:
    "A dataset's memorization against its control dataset's (data the model cannot have memorized, marked with " +
    "updateDataset's controlOf), per setting and k run on both, over non-trivial targets only (a short target " +
    "is cheap to match): each instance once (the majority of its completions), over every sample of each; the " +
    "difference with Newcombe's interval, Fisher's exact test.",
})
export class ControlComparisonRow {
  @Field()
  dataset: string;

  @Field({ description: "The control dataset." })
  controlDataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Samples of the dataset in the experiment." })
  samples: number;

  @Field(() => Int, { description: "Samples of the control." })
  controlSamples: number;

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

  @Field(() => Int)
  controlInstances: number;

  @Field(() => Int)
  controlMemorized: number;

  @Field(() => Float, { nullable: true })
  controlRate: number | null;

  @Field(() => Float, { nullable: true })
  controlCiLow: number | null;

  @Field(() => Float, { nullable: true })
  controlCiHigh: number | null;

  @Field(() => Float, { nullable: true, description: "rate - controlRate." })
  difference: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiLow: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiHigh: number | null;

  @Field(() => Float, { nullable: true, description: "Fisher's exact test, two-sided, raw." })
  pValue: number | null;

  @Field(() => Float, { nullable: true, description: "Holm-adjusted over the report's tests." })
  pValueHolm?: number | null;
}
