// The row types of the TS-Guessing method's evidence (its cell of the contamination summary): what its analysis
// returns and GraphQL serves.
import { Field, Float, ID, Int, ObjectType } from "../../graphql/deferred-types";
import { ContaminationVerdict } from "../../study/contamination-verdict";

@ObjectType({ description: "One instance's masked word and the model's guess (TS-Guessing)." })
export class GuessingInstanceScore {
  @Field(() => ID, { description: "The sampled instance." })
  sampledInstanceId: string;

  @Field(() => String, { nullable: true, description: "The word the model answered, lowercased." })
  guess: string | null;

  @Field({ description: "The guess is the masked word (the authors' exact match)." })
  matched: boolean;
}

@ObjectType({
  description:
    "A sample's exact matches against its dataset's control (a dataset marked controlOf it, which the model cannot " +
    "have seen): one-sided Mann-Whitney U on the matches (0 or 1).",
})
export class GuessingControlTest {
  @Field()
  controlDataset: string;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  controlInstances: number;

  @Field(() => Float, { nullable: true, description: "The control's exact-match rate." })
  controlMatchRate: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "P(an instance matches and a control instance does not), ties half.",
  })
  auc: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "One-sided p-value: the sample's words are guessed more often than the control's.",
  })
  pValue: number | null;
}

@ObjectType({
  description:
    "The TS-Guessing method's evidence for one sample (Deng et al. 2024): each instance with one content word " +
    "masked, the model asked for it in one word; the exact-match rate, and a test against the dataset's control, " +
    "which alone decides.",
})
export class GuessingEvidence {
  @Field(() => [ID])
  runIds: string[];

  @Field(() => Int, { description: "Instances answered (a word masked and an answer stored)." })
  instances: number;

  @Field(() => Int, {
    description: "Instances of the sample not compared: no word to mask, or the call failed or has not run.",
  })
  notCompared: number;

  @Field(() => Int)
  matched: number;

  @Field(() => Float, { nullable: true, description: "matched / instances: the authors' exact-match rate." })
  matchRate: number | null;

  @Field(() => Float, { nullable: true })
  matchRateLow: number | null;

  @Field(() => Float, { nullable: true })
  matchRateHigh: number | null;

  @Field(() => GuessingControlTest, { nullable: true, description: "Against the control; null without one." })
  test: GuessingControlTest | null;

  @Field(() => ContaminationVerdict, {
    nullable: true,
    description:
      "Against the control: CONTAMINATED when the one-sided p-value is under alpha, NO_EVIDENCE otherwise, " +
      "CANNOT_TELL with fewer than 10 instances on a side; null without a control.",
  })
  verdict: ContaminationVerdict | null;

  @Field(() => Float)
  alpha: number;

  @Field(() => [GuessingInstanceScore])
  instanceScores: GuessingInstanceScore[];

  @Field()
  cannotTell: string;
}
