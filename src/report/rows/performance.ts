// The row types of the report table in ../tables/performance.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { IntervalMethod } from "../../study/measures";
import { SampleScoped } from "../tables/scope";

@ObjectType({
  description:
    "Accuracy of the performance runs per dataset (and sample) x k: pooled accuracy with a 95% interval, the mean " +
    "and spread over repeats, and the failed and unparseable counts beside it.",
  implements: SampleScoped,
})
export class PerformanceRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  repeats: number;

  @Field(() => Int, { description: "Completions over all repeats." })
  n: number;

  @Field(() => Int)
  correct: number;

  @Field(() => Int, { description: "Answers no label could be read from (counted wrong)." })
  unparseable: number;

  @Field(() => Int, { description: "Calls that failed for good (no answer; not in n)." })
  failed: number;

  @Field(() => Float, { nullable: true, description: "correct / n over all repeats." })
  accuracy: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;

  @Field(() => IntervalMethod, { nullable: true })
  intervalMethod: IntervalMethod | null;

  @Field(() => Int, { description: "Samples the row pools." })
  samples: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "Sample standard deviation of the accuracy between the pooled samples (null for one sample).",
  })
  betweenSampleStandardDeviation: number | null;

  @Field(() => Float, { nullable: true, description: "Mean over repeats of each repeat's accuracy." })
  meanAccuracy: number | null;

  @Field(() => Float, { nullable: true, description: "Sample standard deviation over repeats." })
  accuracyStandardDeviation: number | null;
}
