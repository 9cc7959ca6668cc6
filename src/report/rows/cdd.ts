// The row types of the CDD method's evidence (its cell of the contamination summary): what its analysis returns and
// GraphQL serves.
import { Field, Float, ID, Int, ObjectType } from "../../graphql/deferred-types";
import { ContaminationVerdict } from "../../study/contamination-verdict";

@ObjectType({
  description: "One instance's continuations under CDD: how peaked its samples sit around the greedy one.",
})
export class CddInstanceScore {
  @Field(() => ID, { description: "The sampled instance." })
  sampledInstanceId: string;

  @Field(() => Float, {
    description:
      "The share of samples within alpha x the longest length of the greedy continuation (token edits).",
  })
  peakedness: number;

  @Field({ description: "peakedness > xi: the authors' decision for one instance." })
  leaked: boolean;

  @Field(() => Int, { description: "Samples compared with the greedy continuation." })
  samples: number;
}

@ObjectType({
  description:
    "A sample's peakedness against its dataset's control (a dataset marked controlOf it, which the model cannot " +
    "have seen): one-sided Mann-Whitney U.",
})
export class CddControlTest {
  @Field()
  controlDataset: string;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  controlInstances: number;

  @Field(() => Float, { nullable: true, description: "The control's instances leaked by the authors' rule." })
  controlLeakShare: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "P(an instance's peakedness is above a control instance's), ties counting half.",
  })
  auc: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "One-sided p-value: the sample's peakedness sits above the control's.",
  })
  pValue: number | null;
}

@ObjectType({
  description:
    "The CDD method's evidence for one sample (Dong et al. 2024): per instance, the peakedness of N sampled " +
    "continuations of its first piece around the greedy one; the sample's share leaked by the authors' rule; and a " +
    "test against the dataset's control, which alone decides.",
})
export class CddEvidence {
  @Field(() => [ID])
  runIds: string[];

  @Field({ description: "GUIDED or RAW: what the prompts showed." })
  prompt: string;

  @Field(() => Int, { description: "Instances with a greedy continuation and at least two samples." })
  instances: number;

  @Field(() => Int, {
    description: "Instances of the sample that could not be compared (failed or missing items).",
  })
  notCompared: number;

  @Field(() => Float, { nullable: true, description: "Samples per compared instance, on average." })
  samplesPerInstance: number | null;

  @Field(() => Int, { description: "Instances leaked by the authors' rule (peakedness > xi)." })
  leaked: number;

  @Field(() => Float, { nullable: true })
  leakShare: number | null;

  @Field(() => Float, { nullable: true, description: "95% Wilson interval of the share leaked." })
  leakShareLow: number | null;

  @Field(() => Float, { nullable: true })
  leakShareHigh: number | null;

  @Field(() => Float, { nullable: true })
  meanPeakedness: number | null;

  @Field(() => Float, { description: "The edit-distance tolerance, a share of the longest continuation." })
  peakAlpha: number;

  @Field(() => Float, { description: "The peakedness above which an instance is leaked." })
  xi: number;

  @Field(() => CddControlTest, { nullable: true, description: "Against the control; null without one." })
  test: CddControlTest | null;

  @Field(() => ContaminationVerdict, {
    nullable: true,
    description:
      "Against the control: CONTAMINATED when the one-sided p-value is under alpha, NO_EVIDENCE otherwise, " +
      "CANNOT_TELL with fewer than 10 instances on a side; null without a control (the authors' share alone " +
      "decides nothing: any low-entropy model is peaked).",
  })
  verdict: ContaminationVerdict | null;

  @Field(() => Float, { description: "The test's level." })
  alpha: number;

  @Field(() => [CddInstanceScore], { description: "Each compared instance's peakedness." })
  instanceScores: CddInstanceScore[];

  @Field()
  cannotTell: string;
}
