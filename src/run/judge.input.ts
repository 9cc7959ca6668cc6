import { IsIn, IsOptional, Matches, MaxLength } from "class-validator";
import { Field, InputType, Int } from "type-graphql";
import { NO_NUL } from "../common/text";
import { JudgeKind } from "../study/verdicts";

/** The automatic judge a run's memorization answers get, as a run is started with it. */
@InputType({
  description: "Which automatic judge: the heuristic one (default), or an LLM through a configured provider.",
})
export class JudgeInput {
  @Field(() => JudgeKind, { defaultValue: JudgeKind.HEURISTIC, description: "HEURISTIC or LLM." })
  kind: JudgeKind;

  @Field(() => String, { nullable: true, description: "LLM: a configured provider." })
  @IsOptional()
  @MaxLength(100)
  @Matches(NO_NUL, { message: "judge.provider must not contain a NUL character" })
  provider?: string;

  @Field(() => String, { nullable: true, description: "LLM: the model." })
  @IsOptional()
  @MaxLength(200)
  @Matches(NO_NUL, { message: "judge.model must not contain a NUL character" })
  model?: string;

  @Field(() => Int, { nullable: true, description: "LLM: the judge prompt version; the latest when absent." })
  @IsOptional()
  promptVersion?: number;

  @Field(() => String, {
    nullable: true,
    description:
      "Which version of the judge. HEURISTIC: `heuristic-8` (meaning over form, read by position; the default), `heuristic-7` (meaning over form), `heuristic-6` (span-aware) or `heuristic-5`. LLM: " +
      "`llm-judge-1` (memicl's, with the judge prompt version; the default) or `time-travel-1` (the method's " +
      "authors' own judge, word for word, answers read strictly).",
  })
  @IsOptional()
  @IsIn(["heuristic-5", "heuristic-6", "heuristic-7", "heuristic-8", "llm-judge-1", "time-travel-1"], {
    message: "judge.judgeVersion: heuristic-5 to heuristic-8 (HEURISTIC), llm-judge-1 or time-travel-1 (LLM)",
  })
  judgeVersion?: string;
}
