import { appendTo } from "../../common/collections";
import { agreement, InterAnnotatorAgreement, interAnnotatorAgreement } from "../../judge/agreement";
import { JudgeVerdict } from "../../judge/verdicts";

/** One reviewer's latest verdict on one completion, with the completion's latest automatic verdict. */
export interface ReviewRating {
  item: string;
  reviewer: string;
  verdict: JudgeVerdict;
  automatic: JudgeVerdict | null;
}

export interface ReviewSummary {
  /** Completions some human reviewed. */
  reviewed: number;
  /** The humans against each other (Cohen's kappa for two reviewers, Fleiss' for more). */
  reviewers: InterAnnotatorAgreement;
  /** Completions with a reviewers' majority and a readable automatic verdict: the judge against the humans. */
  judgeVsHumanN: number;
  judgeVsHumanAgreement: number;
  judgeVsHumanKappa: number;
  judgeVsHumanKappaBinary: number;
}

/** The majority of one completion's reviewers, or null when they tie. */
function majority(verdicts: readonly JudgeVerdict[]): JudgeVerdict | null {
  const counts = new Map<JudgeVerdict, number>();
  for (const verdict of verdicts) counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const leaders = [...counts].filter(([, count]) => count === top);
  return leaders.length === 1 ? leaders[0][0] : null;
}

/**
 * The review section of the report: agreement between reviewers beside the automatic judge's agreement with the
 * reviewers' majority (the effective human verdict), on the same experiment's completions.
 */
export function reviewSummary(ratings: readonly ReviewRating[]): ReviewSummary {
  const byItem = new Map<string, ReviewRating[]>();
  for (const rating of ratings) appendTo(byItem, rating.item, rating);
  const pairs: [JudgeVerdict | null, JudgeVerdict | null][] = [...byItem.values()].map((item) => [
    item[0].automatic,
    majority(item.map((rating) => rating.verdict)),
  ]);
  const judged = agreement(pairs);
  return {
    reviewed: byItem.size,
    reviewers: interAnnotatorAgreement(ratings),
    judgeVsHumanN: judged.n,
    judgeVsHumanAgreement: judged.percentAgreement,
    judgeVsHumanKappa: judged.kappa,
    judgeVsHumanKappaBinary: judged.kappaBinary,
  };
}
