// The row types of the report table in ../tables/guided-general.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { SampleScoped } from "../tables/scope";

@ObjectType({
  description:
    "Time Travel's Algorithm 1 per sample and k: each instance's ROUGE-L F (rouge_score's tokenisation, no " +
    "stemmer, rounded to 2 decimals) under the guided instruction (FULL_INFORMATION) and the general one " +
    "(GENERAL_INSTRUCTION), and one-sided bootstrap p-values that the guided mean is higher: paired (the default) " +
    "and unpaired (as the authors' helper). BLEURT is not computed (it needs a TensorFlow checkpoint).",
  implements: SampleScoped,
})
export class GuidedGeneralRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => String, { nullable: true, description: "The split of the instances under test." })
  split: string | null;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Instances scored under both instructions." })
  instances: number;

  @Field(() => Float)
  guidedMean: number;

  @Field(() => Float)
  generalMean: number;

  @Field(() => Float, { nullable: true, description: "Mean per-instance guided - general." })
  difference: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "Paired bootstrap: share of resampled mean differences <= 0.",
  })
  pValuePaired: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "Unpaired bootstrap (bootstrap_helper.py's): 1 - share of resamples with the guided mean higher.",
  })
  pValueUnpaired: number | null;

  @Field({ description: "pValuePaired <= 0.05: Time Travel's contamination signal." })
  significant: boolean;

  @Field(() => Int)
  resamples: number;

  @Field(() => Int, { description: "The bootstrap's seed." })
  seed: number;
}
