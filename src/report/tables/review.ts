import { Field, Float, Int, ObjectType } from "type-graphql";
import { defineTable, markdownTable, num, pct } from "./table";

declare module "./table" {
  interface ReportTables {
    review: ReportReview | null;
  }
}

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

const NO_SAMPLE = { sampleId: null, sampleName: null, sampleSeed: null };

export const reviewTable = defineTable<"review">({
  field: "review",
  type: () => ReportReview,
  nullable: true,
  description:
    "Human review: agreement between reviewers (Cohen's or Fleiss' kappa) beside the automatic judge's agreement " +
    "with the reviewers' majority.",
  compute: (inputs) => inputs.read("review"),
  markdown: {
    title: "Human review (each reviewer's latest verdict; the effective verdict is the reviewers' majority)",
    body: (review) =>
      review
        ? markdownTable(
            [
              "reviewed",
              "between reviewers",
              "reviewers",
              "items",
              "kappa",
              "kappa (memorized or not)",
              "unanimous",
              "judge vs majority: pairs",
              "agreement",
              "kappa",
              "kappa (memorized or not)",
            ],
            [
              [
                review.reviewed,
                review.reviewers.statistic === "NONE"
                  ? "none reviewed twice"
                  : review.reviewers.statistic === "COHEN"
                    ? "Cohen"
                    : "Fleiss",
                review.reviewers.reviewers.join(", "),
                review.reviewers.items,
                num(review.reviewers.kappa),
                num(review.reviewers.kappaBinary),
                pct(review.reviewers.percentAgreement),
                review.judgeVsHumanN,
                pct(review.judgeVsHumanAgreement),
                num(review.judgeVsHumanKappa),
                num(review.judgeVsHumanKappaBinary),
              ],
            ],
          )
        : "No completion has been reviewed.",
  },
  statistics: [
    "reviewed",
    "reviewer_kappa",
    "reviewer_kappa_binary",
    "reviewer_agreement",
    "judge_agreement",
    "judge_kappa",
    "judge_kappa_binary",
  ],
  flat: (review, emit) => {
    if (!review) return;
    const items = { denominator: review.reviewers.items };
    const pairs = { denominator: review.judgeVsHumanN };
    emit("reviewed", NO_SAMPLE, review.reviewed);
    emit("reviewer_kappa", NO_SAMPLE, review.reviewers.kappa, items);
    emit("reviewer_kappa_binary", NO_SAMPLE, review.reviewers.kappaBinary, items);
    emit("reviewer_agreement", NO_SAMPLE, review.reviewers.percentAgreement, items);
    emit("judge_agreement", NO_SAMPLE, review.judgeVsHumanAgreement, pairs);
    emit("judge_kappa", NO_SAMPLE, review.judgeVsHumanKappa, pairs);
    emit("judge_kappa_binary", NO_SAMPLE, review.judgeVsHumanKappaBinary, pairs);
  },
});
