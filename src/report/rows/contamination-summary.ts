// The row types of the report table in ../tables/contamination-summary.ts: what its analysis returns and GraphQL serves.

import { Field, Float, ID, Int, ObjectType } from "../../graphql/deferred-types";
import { ContaminationVerdict } from "../../study/contamination-verdict";
import { SampleScoped } from "../tables/scope";
import { CddEvidence } from "./cdd";
import { CodecEvidence } from "./codec";
import { LogprobEvidence } from "./logprob";
import { NgramEvidence } from "./ngram";
import { QuizRangeRow } from "./quiz";
import { GuessingEvidence } from "./ts-guessing";

@ObjectType({ description: "Time Travel's rule on the seeded 10-instance subset, guided instruction." })
export class TimeTravelEvidence {
  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  subsetJudged: number;

  @Field(() => Int)
  exact: number;

  @Field(() => Int)
  nearExact: number;

  @Field({
    description:
      "At least one exact or two near-exact: the paper's rule, not a verdict (see falsePositiveRate; the " +
      "replication evidence's verdict is the test).",
  })
  contaminated: boolean;

  @Field(() => Int, { description: "Non-trivial instances the 10-instance subset is drawn from." })
  pool: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "How often the rule fires for a model with no memory on this sample at this k: the hypergeometric chance " +
      "that a 10-instance subset of the pool holds 1 exact or 2 near-exact no-memory matches (an upper bound).",
  })
  falsePositiveRate: number | null;

  @Field(() => [ID])
  runIds: string[];

  @Field()
  cannotTell: string;
}

@ObjectType({ description: "The replication test at one k." })
export class ReplicationTest {
  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Judged instances of the full-information cell." })
  instances: number;

  @Field(() => Int, { description: "Of those, with a trivial target (left out)." })
  trivial: number;

  @Field(() => Int, { description: "Non-trivial ones a no-memory answer matches at this k (left out)." })
  floor: number;

  @Field(() => Int, { description: "Non-trivial, outside the floor: the test's trials." })
  eligible: number;

  @Field(() => Int, { description: "Eligible and memorized." })
  aboveFloor: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "One-sided exact binomial p against the allowance (raw).",
  })
  pValue: number | null;

  @Field(() => Int, { nullable: true, description: "The control dataset's eligible instances at this k." })
  controlEligible: number | null;

  @Field(() => Int, { nullable: true })
  controlAboveFloor: number | null;

  @Field(() => Float, { nullable: true, description: "One-sided Fisher p: above the control's rate (raw)." })
  controlPValue: number | null;
}

@ObjectType({
  description:
    "Replication under full information above its no-memory floor, beside the general instruction.",
})
export class ReplicationEvidence {
  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  memorized: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Int)
  floorInstances: number;

  @Field(() => Float, { nullable: true })
  floorRate: number | null;

  @Field(() => Int)
  aboveFloor: number;

  @Field(() => Float, { nullable: true })
  aboveFloorRate: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiLow: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiHigh: number | null;

  @Field({
    deprecationReason: "Not a test (true for any count above the floor): read verdict.",
    description: "The above-floor rate's 95% interval excludes 0.",
  })
  signal: boolean;

  @Field(() => ContaminationVerdict, {
    description:
      "The decision: memorized above the no-memory floor on non-trivial targets beyond a no-memory allowance " +
      "(and beyond the control dataset, where the experiment has one), at alpha, Bonferroni over the k tested.",
  })
  verdict: ContaminationVerdict;

  @Field(() => Float)
  alpha: number;

  @Field(() => Float, {
    description: "The eligible share a model without memory may reach (the null's rate).",
  })
  allowance: number;

  @Field(() => Int, { description: "The k values tested: the Bonferroni family." })
  family: number;

  @Field(() => Float, { nullable: true, description: "The smallest Bonferroni-adjusted p over the family." })
  pValue: number | null;

  @Field(() => Int, { nullable: true, description: "The k of that p." })
  verdictShots: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "The smallest rate the test detects with 80% power; null when no count could reject.",
  })
  minimumDetectableRate: number | null;

  @Field(() => [ReplicationTest])
  tests: ReplicationTest[];

  @Field({ description: "Why this verdict, in one sentence." })
  reason: string;

  @Field(() => Float, {
    nullable: true,
    description: "The general instruction's rate at the same k (the control).",
  })
  generalInstructionRate: number | null;

  @Field(() => Int, { nullable: true })
  generalInstructionInstances: number | null;

  @Field(() => [ID])
  runIds: string[];

  @Field()
  cannotTell: string;
}

@ObjectType({ description: "Time Travel's Algorithm 1 at the smallest k: guided vs general, by ROUGE-L." })
export class GuidedGeneralEvidence {
  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  instances: number;

  @Field(() => Float)
  guidedMean: number;

  @Field(() => Float)
  generalMean: number;

  @Field(() => Float, { nullable: true })
  pValuePaired: number | null;

  @Field(() => Float, { nullable: true })
  pValueUnpaired: number | null;

  @Field()
  significant: boolean;

  @Field(() => Int)
  resamples: number;

  @Field(() => [ID])
  runIds: string[];

  @Field()
  cannotTell: string;
}

@ObjectType({ description: "The Data Contamination Quiz's range with its runs." })
export class QuizEvidence {
  @Field(() => QuizRangeRow)
  range: QuizRangeRow;

  @Field(() => [ID])
  runIds: string[];

  @Field()
  cannotTell: string;
}

@ObjectType({
  description:
    "Every method's evidence of contamination for one sample (a dataset and split), side by side, each with its " +
    "counts, its runs and what it cannot tell; null where the experiment did not run the method. Not a score.",
  implements: SampleScoped,
})
export class ContaminationSummaryRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => String, { nullable: true })
  split: string | null;

  @Field(() => TimeTravelEvidence, { nullable: true })
  timeTravel: TimeTravelEvidence | null;

  @Field(() => ReplicationEvidence, { nullable: true })
  replication: ReplicationEvidence | null;

  @Field(() => GuidedGeneralEvidence, { nullable: true })
  guidedGeneral: GuidedGeneralEvidence | null;

  @Field(() => QuizEvidence, { nullable: true })
  quiz: QuizEvidence | null;

  @Field(() => LogprobEvidence, { nullable: true, description: "The LOGPROB method (open-weight models)." })
  logprob: LogprobEvidence | null;

  @Field(() => CddEvidence, { nullable: true, description: "The CDD method (sampled continuations)." })
  cdd: CddEvidence | null;

  @Field(() => NgramEvidence, {
    nullable: true,
    description: "The n-gram coverage method (sampled continuations).",
  })
  ngramCoverage: NgramEvidence | null;

  @Field(() => CodecEvidence, {
    nullable: true,
    description: "The CoDeC method (confidence with and without context; prompt log-probabilities).",
  })
  codec: CodecEvidence | null;

  @Field(() => GuessingEvidence, {
    nullable: true,
    description: "The TS-Guessing method (a masked word asked for; chat models).",
  })
  tsGuessing: GuessingEvidence | null;
}
