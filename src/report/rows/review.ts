// The row types of the report table in ../tables/review.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";

@ObjectType({
  description:
    "How often human reviewers agree with each other, on the completions every one of them reviewed (each " +
    "reviewer's latest verdict): Cohen's kappa for two reviewers, Fleiss' for more.",
})
export class ReviewerAgreement {
  @Field(() => [String], {
    description: "Every reviewer with a readable verdict in scope.",
  })
  reviewers: string[];

  @Field(() => Int, {
    description: "Completions every reviewer reviewed: the statistic is computed on these.",
  })
  items: number;

  @Field(() => Int, {
    description: "Completions reviewed by two or more reviewers but not by all, left out.",
  })
  excluded: number;

  @Field(() => String, {
    description: "COHEN (two reviewers), FLEISS (more) or NONE (no completion every reviewer reviewed).",
  })
  statistic: string;

  @Field(() => Float, { nullable: true, description: "Kappa over EXACT / NEAR_EXACT / INEXACT." })
  kappa: number | null;

  @Field(() => Float, { nullable: true, description: "Kappa over memorized (exact or near-exact) vs not." })
  kappaBinary: number | null;

  @Field(() => Float, { nullable: true, description: "Share of `items` on which every reviewer agreed." })
  percentAgreement: number | null;
}

@ObjectType({
  description:
    "Human review of the experiment's completions: the reviewers against each other, and the automatic judge " +
    "against the reviewers' majority.",
})
export class ReportReview {
  @Field(() => Int, { description: "Completions some human reviewed." })
  reviewed: number;

  @Field(() => ReviewerAgreement, {
    description: "Inter-annotator agreement (Cohen's kappa for two, Fleiss' for more).",
  })
  reviewers: ReviewerAgreement;

  @Field(() => Int, {
    description:
      "Completions with a reviewers' majority and a readable automatic verdict (the judge vs human pairs).",
  })
  judgeVsHumanN: number;

  @Field(() => Float, { nullable: true })
  judgeVsHumanAgreement: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "Cohen's kappa, latest automatic verdict vs the majority.",
  })
  judgeVsHumanKappa: number | null;

  @Field(() => Float, { nullable: true })
  judgeVsHumanKappaBinary: number | null;
}
