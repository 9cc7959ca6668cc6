// The row types of the report table in ../tables/logprob.ts: what its analysis returns and GraphQL serves.

import { Field, Float, ID, Int, ObjectType } from "../../graphql/deferred-types";
import { ContaminationVerdict } from "../../study/contamination-verdict";

@ObjectType({
  description: "One membership score of a sample's instances: how many were scored and its mean.",
})
export class LogprobScoreSummary {
  @Field({
    description: "loss, zlib, minK, minKPlusPlus or reference (docs/METHOD.md); higher is more member-like.",
  })
  score: string;

  @Field(() => Int)
  instances: number;

  @Field(() => Float, { nullable: true })
  mean: number | null;
}

@ObjectType({
  description:
    "A calibration study (members and non-members labelled): how well one score tells a group's members from its " +
    "non-members.",
})
export class LogprobCalibrationRow {
  @Field({ description: "The label group (membership's `group`)." })
  group: string;

  @Field()
  score: string;

  @Field(() => Int)
  members: number;

  @Field(() => Int)
  nonMembers: number;

  @Field(() => Float, { nullable: true, description: "ROC AUC: P(a member scores above a non-member)." })
  auc: number | null;

  @Field(() => Float, { nullable: true, description: "95% interval (Hanley and McNeil)." })
  aucLow: number | null;

  @Field(() => Float, { nullable: true })
  aucHigh: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "True-positive rate at a false-positive rate of at most 1%.",
  })
  tprAt1PercentFpr: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "True-positive rate at a false-positive rate of at most 5%.",
  })
  tprAt5PercentFpr: number | null;
}

@ObjectType({
  description:
    "A sample's scores against its dataset's control (a dataset marked controlOf it, which the model cannot have " +
    "seen): one-sided Mann-Whitney U per score.",
})
export class LogprobControlTest {
  @Field()
  score: string;

  @Field()
  controlDataset: string;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  controlInstances: number;

  @Field(() => Float, {
    nullable: true,
    description: "P(an instance scores above a control instance): the AUC.",
  })
  auc: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "One-sided p-value: the sample's scores sit above the control's.",
  })
  pValue: number | null;
}

@ObjectType({ description: "A reason LOGPROB items failed, and how many gave it." })
export class LogprobFailureReason {
  @Field()
  reason: string;

  @Field(() => Int)
  items: number;
}

@ObjectType({
  description:
    "What one LOGPROB run gave: items scored, answered but not scorable, failed (with the reasons) and never tried.",
})
export class LogprobRunOutcome {
  @Field(() => ID)
  runId: string;

  @Field()
  status: string;

  @Field(() => Int)
  expected: number;

  @Field(() => Int, { description: "Items whose answer was scored." })
  scored: number;

  @Field(() => Int, { description: "Items answered without a readable score (none are computed from them)." })
  unusable: number;

  @Field(() => Int, {
    description: "Items that failed: an error, or an answer that could not be scored whole.",
  })
  failed: number;

  @Field(() => Int, { description: "Items never tried (the run stopped first, or is still going)." })
  notTried: number;

  @Field(() => [LogprobFailureReason], {
    description: "The commonest reasons of the failed items (at most 5).",
  })
  reasons: LogprobFailureReason[];

  @Field(() => String, { nullable: true })
  lastError: string | null;
}

@ObjectType({
  description:
    "The LOGPROB method's evidence for one sample: the scores of its instances' texts under the examined model, and " +
    "either a calibration (labelled members and non-members) or a test against the dataset's control.",
})
export class LogprobEvidence {
  @Field(() => [ID])
  runIds: string[];

  @Field(() => [LogprobScoreSummary])
  scores: LogprobScoreSummary[];

  @Field(() => [LogprobRunOutcome], {
    description: "Each run of the sample: scored, unusable, failed (and why) and never-tried items.",
  })
  runs: LogprobRunOutcome[];

  @Field(() => Boolean, {
    nullable: true,
    description: "The sample's label in a calibration study; null without.",
  })
  member: boolean | null;

  @Field(() => [LogprobCalibrationRow], {
    description: "The calibration of the sample's label group; empty without labels.",
  })
  calibration: LogprobCalibrationRow[];

  @Field(() => [LogprobControlTest], {
    description: "Each score against the control; empty without a control.",
  })
  tests: LogprobControlTest[];

  @Field(() => ContaminationVerdict, {
    nullable: true,
    description:
      "Against the control, by Min-K% (the pre-declared score): CONTAMINATED when its one-sided p-value is under " +
      "alpha, NO_EVIDENCE otherwise, CANNOT_TELL with fewer than 10 instances on a side; null without a control.",
  })
  verdict: ContaminationVerdict | null;

  @Field(() => Float)
  alpha: number;

  @Field()
  cannotTell: string;
}
