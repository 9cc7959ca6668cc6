// The row types of the CoDeC method's evidence (its cell of the contamination summary): what its analysis returns
// and GraphQL serves.
import { Field, Float, ID, Int, ObjectType } from "../../graphql/deferred-types";
import { ContaminationVerdict } from "../../study/contamination-verdict";

@ObjectType({
  description:
    "One instance's confidence without and with another instance of its sample in context (CoDeC): mean " +
    "log-probabilities per token over the same tokens.",
})
export class CodecInstanceScore {
  @Field(() => ID, { description: "The sampled instance." })
  sampledInstanceId: string;

  @Field(() => Float, { description: "The mean log-probability of its tokens scored alone." })
  alone: number;

  @Field(() => Float, { description: "The mean log-probability of the same tokens after the context." })
  inContext: number;

  @Field(() => Float, { description: "inContext - alone: negative when the context lowers the confidence." })
  delta: number;

  @Field(() => Int, { description: "Tokens compared." })
  tokens: number;
}

@ObjectType({
  description:
    "A sample's confidence changes against its dataset's control (a dataset marked controlOf it, which the model " +
    "cannot have seen): one-sided Mann-Whitney U on the drops (-delta).",
})
export class CodecControlTest {
  @Field()
  controlDataset: string;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  controlInstances: number;

  @Field(() => Float, {
    nullable: true,
    description: "The control's share of instances whose confidence drops.",
  })
  controlDropShare: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "P(an instance's confidence drops more than a control instance's).",
  })
  auc: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "One-sided p-value: the sample's confidence drops more than the control's.",
  })
  pValue: number | null;
}

@ObjectType({
  description:
    "The CoDeC method's evidence for one sample (Zawalski et al. 2026): each instance's mean log-likelihood with " +
    "another instance of the sample in context against without; the share whose confidence drops (the authors' " +
    "score), and a test against the dataset's control, which alone decides.",
})
export class CodecEvidence {
  @Field(() => [ID], { description: "The two scoring runs (alone, in context)." })
  runIds: string[];

  @Field(() => Int)
  instances: number;

  @Field(() => Int, {
    description: "Instances of the sample without both passes scored (failed or missing).",
  })
  notCompared: number;

  @Field(() => Int, { description: "Instances whose confidence drops with the context." })
  dropped: number;

  @Field(() => Float, { nullable: true, description: "dropped / instances: the authors' dataset score." })
  dropShare: number | null;

  @Field(() => Float, { nullable: true })
  dropShareLow: number | null;

  @Field(() => Float, { nullable: true })
  dropShareHigh: number | null;

  @Field(() => Float, { nullable: true, description: "The mean change of confidence (inContext - alone)." })
  meanDelta: number | null;

  @Field(() => CodecControlTest, { nullable: true, description: "Against the control; null without one." })
  test: CodecControlTest | null;

  @Field(() => ContaminationVerdict, {
    nullable: true,
    description:
      "Against the control: CONTAMINATED when the one-sided p-value is under alpha, NO_EVIDENCE otherwise, " +
      "CANNOT_TELL with fewer than 10 instances on a side; null without a control.",
  })
  verdict: ContaminationVerdict | null;

  @Field(() => Float)
  alpha: number;

  @Field(() => [CodecInstanceScore])
  instanceScores: CodecInstanceScore[];

  @Field()
  cannotTell: string;
}
