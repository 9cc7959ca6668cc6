import { IsOptional, Length, MaxLength } from "class-validator";
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { Completion } from "../completion/completion.entity";
import { ReviewerAgreement } from "../report/tables/review";
import { JudgeInput } from "../run/judge.input";
import { JudgeKind, Verdict } from "../study/verdicts";
import { Judgment } from "./judgment.entity";

@InputType({ description: "Runs to act on: one run, or every run of an experiment." })
export class JudgingScope {
  @Field(() => ID, { nullable: true })
  @IsOptional()
  runId?: string;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  experimentId?: string;
}

@InputType()
export class ReviewCompletionInput {
  @Field(() => ID)
  completionId: string;

  @Field(() => String, {
    nullable: true,
    description:
      "Who reviewed. Required without authentication; with API keys on, the key's name is the reviewer and a " +
      "different name here is refused.",
  })
  @IsOptional()
  @Length(1, 200)
  reviewer?: string | null;

  @Field(() => Verdict)
  verdict: Verdict;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2000)
  note?: string;
}

@ObjectType()
export class ReviewCompletionPayload {
  @Field(() => Completion)
  completion: Completion;

  @Field(() => Judgment)
  judgment: Judgment;
}

@InputType({ description: "Judge the scope again (new judgments; old ones stay)." })
export class RejudgeInput {
  @Field(() => JudgingScope)
  scope: JudgingScope;

  @Field(() => JudgeInput, { nullable: true, description: "The heuristic judge when absent." })
  @IsOptional()
  judge?: JudgeInput;

  @Field(() => Boolean, {
    nullable: true,
    description:
      "An LLM judge only: judge only the completions whose effective verdict rests on a span the heuristic judge " +
      "cannot class (`Judgment.unsure`, the report's band between its bounds), and leave the sure ones as they " +
      "are. `estimateJudging` with the same input gives the calls and the cost first.",
  })
  @IsOptional()
  unsureOnly?: boolean;

  @Field(() => Float, {
    nullable: true,
    description: "ROUGE-L threshold; the calibrated default when absent.",
  })
  @IsOptional()
  rougeL?: number;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  containedReferenceMinTokens?: number;

  @Field(() => Float, { nullable: true })
  @IsOptional()
  charSimilarity?: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "Content-word precision threshold (the share of the answer's content words found in the reference); the calibrated default when absent.",
  })
  @IsOptional()
  contentPrecision?: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "Content-word recall threshold (the share of the reference's content words found in the answer); the calibrated default when absent.",
  })
  @IsOptional()
  contentRecall?: number;
}

@ObjectType()
export class RejudgePayload {
  @Field(() => Int, { description: "Judgments added now (heuristic judge)." })
  judgedCount: number;

  @Field(() => Int, { description: "Judgments queued (LLM judge); they appear as workers make them." })
  queuedCount: number;

  @Field(() => String, {
    nullable: true,
    description: "LLM judging: the request id its judgments carry in `details.request`.",
  })
  request: string | null;
}

@ObjectType({
  description:
    "What an LLM judging request (`rejudge` with an LLM judge) would send, before it does: the calls, their " +
    "tokens, and the worst case at the model's configured price.",
})
export class LlmJudgingEstimate {
  @Field(() => Int, { description: "Completions the request would judge (one call each)." })
  completions: number;

  @Field(() => Int)
  calls: number;

  @Field(() => Float, { description: "The judge prompts' tokens, by memicl's tokenizer." })
  promptTokens: number;

  @Field(() => Float, { description: "Output tokens at most: 10 a call (a verdict word)." })
  maxOutputTokens: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "The most the request can cost: every prompt token with the budget's margin at the input price and every " +
      "output token allowed; null where the provider's configuration has no price for the model.",
  })
  worstCaseUsd: number | null;

  @Field({ description: "Whether the provider's configuration prices the model." })
  priced: boolean;
}

@InputType({
  description: "A judge: a kind, optionally one judge of that kind by name (a reviewer, `heuristic`, ...).",
})
export class JudgeSelector {
  @Field(() => JudgeKind)
  kind: JudgeKind;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  name?: string;
}

@ObjectType({ description: "How often two judges agree on the same completions." })
export class JudgeAgreement {
  @Field(() => Int, { description: "Completions both judges judged (UNPARSEABLE left out)." })
  n: number;

  @Field(() => Int, { description: "Succeeded memorization completions in the scope." })
  total: number;

  @Field(() => Float, { description: "n / total." })
  coverage: number;

  @Field(() => Int)
  agreed: number;

  @Field(() => Float, { nullable: true })
  percentAgreement: number | null;

  @Field(() => Float, { nullable: true, description: "Cohen's kappa over EXACT / NEAR_EXACT / INEXACT." })
  kappa: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "Cohen's kappa over memorized (exact or near-exact) vs not.",
  })
  kappaBinary: number | null;

  @Field(() => [[Int]], {
    description: "Rows: judge A, columns: judge B, in EXACT, NEAR_EXACT, INEXACT order.",
  })
  confusion: number[][];

  @Field(() => [ID], { description: "Completions where the two disagree (at most 500)." })
  disagreeingCompletionIds: string[];
}

export enum ReviewReason {
  NEAR_EXACT = "NEAR_EXACT",
  UNREADABLE = "UNREADABLE",
  UNREVIEWED = "UNREVIEWED",
  DISAGREEMENT = "DISAGREEMENT",
  NEAR_THRESHOLD = "NEAR_THRESHOLD",
  REVIEWER_TIE = "REVIEWER_TIE",
  ROUTED = "ROUTED",
  SAMPLE = "SAMPLE",
  UNSURE = "UNSURE",
}

/**
 * The reasons a blind reviewer may ask for: none of them names an automatic or a human verdict (UNSURE holds
 * near-exact and inexact verdicts alike: it says the heuristic judge could not class a span, not what it decided).
 */
export const BLIND_REASONS: readonly ReviewReason[] = [
  ReviewReason.ROUTED,
  ReviewReason.UNREVIEWED,
  ReviewReason.SAMPLE,
  ReviewReason.UNSURE,
];
registerEnumType(ReviewReason, {
  name: "ReviewReason",
  valuesConfig: {
    NEAR_EXACT: {
      description:
        "The effective verdict is NEAR_EXACT (the borderline the study's reviewers corrected); in a reviewer's own " +
        "queue (`reviewer`), the automatic verdict, whatever other reviewers said.",
    },
    UNREADABLE: {
      description:
        "An automatic judge gave no readable verdict (kept in the history) and no human has judged it.",
    },
    UNREVIEWED: { description: "No human has judged it yet." },
    DISAGREEMENT: { description: "The automatic judges' latest verdicts differ." },
    NEAR_THRESHOLD: {
      description:
        "Not reviewed yet, and the heuristic judge's latest scores sit within 0.05 of a threshold it decided by " +
        "(ROUGE-L, or content-word precision or recall): the verdict could go either way.",
    },
    REVIEWER_TIE: {
      description:
        "Reviewers' latest verdicts tie (no majority): the automatic verdict stands until another review breaks it.",
    },
    ROUTED: {
      description:
        "Routed to human review: the automatic verdict is NEAR_EXACT, an automatic judge gave nothing readable, or " +
        "automatic judges disagree, whoever has reviewed it; in a random order fixed by `seed`, so neither the " +
        "reason nor the order tells a reviewer the verdict. The blind reviewer's queue.",
    },
    SAMPLE: { description: "All of them, in a random order fixed by `seed`." },
    UNSURE: {
      description:
        "The effective verdict rests on a span the heuristic judge cannot class (`Judgment.unsure`): the verdicts " +
        "between the report's lower and upper bounds, near-exact and inexact alike; a review settles one. In a " +
        "reviewer's own queue, the latest heuristic judgment is unsure, whatever other reviewers said.",
    },
  },
});

export { ReviewerAgreement };
