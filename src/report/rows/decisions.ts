// The row types of the report table in ../tables/decisions.ts: what its analysis returns and GraphQL serves.

import { Field, Float, ObjectType } from "../../graphql/deferred-types";
import { ContaminationVerdict } from "../../study/contamination-verdict";
import { Decision, DecisionMethod } from "../analyses/decisions";
import { SampleScoped } from "../tables/scope";

@ObjectType({
  implements: SampleScoped,
  description:
    "One method's decision on one sample, in words, with its error rate under a model without memory, what it " +
    "could have seen, the no-memory floor and the headline rate: the report's first page.",
})
export class DecisionRow extends SampleScoped implements Decision {
  @Field()
  dataset: string;

  @Field(() => String, { nullable: true })
  split: string | null;

  @Field(() => String, {
    description:
      "replication (the verdict), time-travel, guided-general, quiz, logprob, cdd, ngram-coverage, codec or ts-guessing.",
  })
  method: DecisionMethod;

  @Field()
  methodName: string;

  @Field(() => ContaminationVerdict, {
    nullable: true,
    description:
      "The verdict of a method that tests (replication, LOGPROB, CDD, n-gram coverage, CoDeC, TS-Guessing); null for a rule or a range.",
  })
  verdict: ContaminationVerdict | null;

  @Field({ description: 'The decision in a few words ("No evidence above 5.8%", "Rule met").' })
  decision: string;

  @Field({ description: "What the decision means, in a sentence." })
  meaning: string;

  @Field(() => Float, {
    nullable: true,
    description: "How often a model without memory gets this method's positive call; null where it has none.",
  })
  errorRate: number | null;

  @Field({
    description: "What errorRate is (a test's level, a rate measured on this sample's floor), or why none.",
  })
  errorRateBasis: string;

  @Field(() => Float, {
    nullable: true,
    description:
      "The smallest rate the method detects with 80% power; null where it has none or cannot reject.",
  })
  minimumDetectableRate: number | null;

  @Field(() => Float, { nullable: true, description: "The no-memory floor of the decision's cell." })
  floorRate: number | null;

  @Field(() => Float, { nullable: true, description: "The headline rate the decision rests on." })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  rateLow: number | null;

  @Field(() => Float, { nullable: true })
  rateHigh: number | null;

  @Field({ description: "What the headline rate counts." })
  rateLabel: string;

  @Field({ description: "Where this method and the verdict disagree, why; empty otherwise." })
  note: string;
}
