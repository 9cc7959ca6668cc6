// The row types of the report table in ../tables/performance-vs-zero-shot.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { SampleScoped } from "../tables/scope";

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
