// The row types of the n-gram coverage method's evidence (its cell of the contamination summary): what its
// analysis returns and GraphQL serves.
import { Field, Float, ID, Int, ObjectType } from "../../graphql/deferred-types";
import { ContaminationVerdict } from "../../study/contamination-verdict";

@ObjectType({
  description: "What one instance's samples reproduce of its true continuation (n-gram coverage).",
})
export class NgramInstanceScore {
  @Field(() => ID, { description: "The sampled instance." })
  sampledInstanceId: string;

  @Field(() => Float, {
    description: "The largest share of the true continuation's words one sample covers.",
  })
  maxCoverage: number;

  @Field(() => Float, { description: "The mean share over the samples." })
  meanCoverage: number;

  @Field(() => Int)
  samples: number;
}

@ObjectType({
  description:
    "A sample's coverage against its dataset's control (a dataset marked controlOf it, which the model cannot have " +
    "seen): one-sided Mann-Whitney U.",
})
export class NgramControlTest {
  @Field()
  controlDataset: string;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  controlInstances: number;

  @Field(() => Float, { nullable: true })
  controlMeanCoverage: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "P(an instance is covered more than a control instance).",
  })
  auc: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "One-sided p-value: the sample is covered more than the control.",
  })
  pValue: number | null;
}

@ObjectType({
  description:
    "The n-gram coverage method's evidence for one sample (Hallinan et al. 2025): per instance, the share of its " +
    "true continuation that sampled continuations of its first piece reproduce in runs of n words, and a test " +
    "against the dataset's control, which alone decides.",
})
export class NgramEvidence {
  @Field(() => [ID])
  runIds: string[];

  @Field({ description: "GUIDED or RAW: what the prompts showed." })
  prompt: string;

  @Field(() => Int, { description: "The shortest run of words that counts." })
  n: number;

  @Field(() => Int)
  instances: number;

  @Field(() => Int, {
    description: "Instances of the sample without a sample to compare (failed or missing).",
  })
  notCompared: number;

  @Field(() => Float, { nullable: true })
  samplesPerInstance: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "The sample's mean coverage (the best sample's per instance).",
  })
  meanCoverage: number | null;

  @Field(() => NgramControlTest, { nullable: true, description: "Against the control; null without one." })
  test: NgramControlTest | null;

  @Field(() => ContaminationVerdict, {
    nullable: true,
    description:
      "Against the control: CONTAMINATED when the one-sided p-value is under alpha, NO_EVIDENCE otherwise, " +
      "CANNOT_TELL with fewer than 10 instances on a side; null without a control.",
  })
  verdict: ContaminationVerdict | null;

  @Field(() => Float)
  alpha: number;

  @Field(() => [NgramInstanceScore])
  instanceScores: NgramInstanceScore[];

  @Field()
  cannotTell: string;
}
