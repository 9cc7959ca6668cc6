import { ReportReview, ReviewerAgreement } from "../rows/review";
import { defineTable, markdownTable, num, pct } from "./table";

export { ReportReview, ReviewerAgreement };

declare module "./table" {
  interface ReportTables {
    review: ReportReview | null;
  }
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
