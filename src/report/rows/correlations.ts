// The row types of the report table in ../tables/correlations.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationMeasure } from "../../study/measures";
import { MemorizationSetting } from "../../study/settings";
import { HOLM, SampleScoped } from "../tables/scope";

@ObjectType()
export class CorrelationPoint {
  @Field(() => Int)
  shots: number;

  @Field(() => Float)
  memorization: number;

  @Field(() => Float)
  performance: number;
}

@ObjectType({
  description:
    "Correlation across k between mean performance accuracy and memorization rate, per sample: Pearson's r with " +
    "its t-test p and a seeded bootstrap 95% interval; Spearman's rho with an exact permutation p for n <= 10.",
  implements: SampleScoped,
})
export class CorrelationRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => MemorizationMeasure)
  measure: MemorizationMeasure;

  @Field(() => [CorrelationPoint], { description: "The k values where both figures exist." })
  points: CorrelationPoint[];

  @Field(() => Int)
  n: number;

  @Field(() => Float, {
    nullable: true,
    description: "Pearson's r (null when a series is constant or n < 2).",
  })
  pearson: number | null;

  @Field(() => Float, { nullable: true, description: "Two-sided p-value of Pearson's r (t-test, n - 2 df)." })
  pearsonPValue: number | null;

  @Field(() => Float, { nullable: true, description: HOLM })
  pearsonPValueHolm: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "Percentile bootstrap interval of r over the points (2,000 resamples, fixed seed); null below 10 points, " +
      "where resampling a handful of points gives an interval that only looks informative (see pearsonDescriptive).",
  })
  pearsonCiLow: number | null;

  @Field(() => Float, { nullable: true })
  pearsonCiHigh: number | null;

  @Field(() => Boolean, {
    description:
      "True below 10 points (the study's grid has 5 k values): r describes these points; read its exact " +
      "permutation p, not an interval.",
  })
  pearsonDescriptive: boolean;

  @Field(() => Float, {
    nullable: true,
    description:
      "Two-sided exact permutation p of r over every pairing of the points (3 to 8 points; null otherwise), " +
      "as scipy's pearsonr with an exact PermutationMethod: no normality assumed.",
  })
  pearsonPermutationPValue: number | null;

  @Field(() => Float, { nullable: true })
  spearman: number | null;

  @Field(() => Float, { nullable: true })
  spearmanPValue: number | null;

  @Field(() => Float, { nullable: true, description: HOLM })
  spearmanPValueHolm: number | null;

  @Field(() => String, {
    nullable: true,
    description: "How Spearman's p was computed: exact permutation (n <= 10) or t-distribution.",
  })
  spearmanPValueMethod: string | null;
}
