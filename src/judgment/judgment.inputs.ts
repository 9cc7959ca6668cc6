import { IsOptional, Length, MaxLength } from "class-validator";
import { Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { Completion } from "../completion/completion.entity";
import { JudgeKind, Judgment, Verdict } from "./judgment.entity";

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

  @Field({ description: "Who reviewed." })
  @Length(1, 200)
  reviewer: string;

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

@InputType({ description: "Judge the scope again with the heuristic judge (new judgments; old ones stay)." })
export class RejudgeInput {
  @Field(() => JudgingScope)
  scope: JudgingScope;

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
}

@ObjectType()
export class RejudgePayload {
  @Field(() => Int, { description: "Judgments added." })
  judgedCount: number;
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
