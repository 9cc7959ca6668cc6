import { ArrayMaxSize, IsIn, IsOptional, Max, MaxLength, Min } from "class-validator";
import { Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { GridInput } from "../experiment/grid.input";
import { Sample } from "../sample/sample.entity";
import { SampledInstance } from "../sample/sampled-instance.entity";
import { MemorizationSetting, RunKind } from "../study/settings";

@ObjectType({ description: "One version of a prompt template; versions never change once written." })
export class PromptTemplateView {
  @Field(() => ID)
  id: string;

  @Field({ description: "e.g. `memorization/FULL_INFORMATION/NLI` or `performance/CLASSIFICATION`." })
  key: string;

  @Field(() => Int)
  version: number;

  @Field(() => String, {
    nullable: true,
    description: "The instruction; placeholders {{dataset}}, {{split}}, {{labels}}.",
  })
  instruction: string | null;

  @Field({
    description: "`system`: the instruction is a system message; `user`: it starts the user message.",
  })
  instructionPlacement: string;

  @Field({
    description:
      "One demonstration; memorization: {{initial}}, {{subsequent}}, {{label}}; performance: {{text}}, {{secondText}}, {{label}}.",
  })
  demonstration: string;

  @Field()
  separator: string;

  @Field({ description: "The instance's slot, last in the prompt; same placeholders as a demonstration." })
  query: string;

  @Field(() => String, { nullable: true })
  note: string | null;

  @Field()
  createdAt: Date;
}

@InputType({ description: "A new version of a template (the next version number is assigned)." })
export class CreatePromptTemplateVersionInput {
  @Field()
  @MaxLength(100)
  key: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(20_000)
  instruction?: string | null;

  @Field(() => String, {
    defaultValue: "system",
    description:
      "`system` (a system message) or `user` (the start of the user message, before the demonstrations).",
  })
  @IsIn(["system", "user"])
  instructionPlacement: "system" | "user";

  @Field()
  @MaxLength(20_000)
  demonstration: string;

  @Field({ defaultValue: "\n\n" })
  @MaxLength(100)
  separator: string;

  @Field()
  @MaxLength(20_000)
  query: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(500)
  note?: string;
}

@ObjectType()
export class ChatMessageView {
  @Field({ description: "`system` or `user`." })
  role: string;

  @Field()
  content: string;
}

@InputType()
export class RenderPromptInput {
  @Field(() => ID)
  sampleId: string;

  @Field(() => ID, {
    nullable: true,
    description: "A dataset instance under test in the sample; the first one when absent.",
  })
  @IsOptional()
  instanceId?: string;

  @Field(() => RunKind)
  kind: RunKind;

  @Field(() => MemorizationSetting, {
    nullable: true,
    description: "Required for memorization, absent for performance.",
  })
  @IsOptional()
  setting?: MemorizationSetting;

  @Field(() => Int)
  @Min(0)
  @Max(100_000)
  shots: number;

  @Field(() => Int, { nullable: true, description: "The template version; the latest when absent." })
  @IsOptional()
  @Min(1)
  templateVersion?: number;

  @Field({
    nullable: true,
    description:
      "LOGPROB only: CoDeC's in-context pass, the instance's text after another instance of the sample and a " +
      "blank line.",
  })
  @IsOptional()
  inContext?: boolean;
}

@ObjectType({ description: "Exactly the chat messages a run would send; no model was called." })
export class RenderedPrompt {
  @Field(() => [ChatMessageView])
  messages: ChatMessageView[];

  @Field(() => Int, { description: "Prompt tokens, chat framing included." })
  tokenCount: number;

  @Field({
    description:
      "The tokenizer the count comes from (exact for GPT-4o-family models, an estimate for others).",
  })
  tokenizer: string;

  @Field()
  templateKey: string;

  @Field(() => Int)
  templateVersion: number;

  @Field(() => Int)
  shots: number;

  @Field(() => SampledInstance)
  sampledInstance: SampledInstance;

  @Field(() => [ID], { description: "Dataset instance ids of the demonstrations, in the order shown." })
  demonstrationInstanceIds: string[];
}

@InputType({ description: "The grid to price: every sample x kind x setting x k." })
export class EstimateGridInput extends GridInput {
  @Field(() => String, {
    nullable: true,
    description:
      "The provider the grid would run on: its limits are checked (prompts it can never send are warned of).",
  })
  @IsOptional()
  @MaxLength(100)
  provider?: string;

  @Field(() => String, {
    nullable: true,
    description:
      "The model, with `provider`: the cost bound uses the provider's configured prices for it when no prices are given.",
  })
  @IsOptional()
  @MaxLength(200)
  model?: string;

  @Field(() => Boolean, {
    nullable: true,
    description:
      "With `provider` and `model`: price the grid at the provider's batch prices (its Batch API); default: batch " +
      "when the provider's `batch` option makes it the default.",
  })
  @IsOptional()
  batch?: boolean;

  @Field(() => Int, {
    defaultValue: 3,
    description: "The QUIZ method: generations an instance's options may take (the bounds count them all).",
  })
  @Min(1)
  @Max(10)
  quizOptionGenerations: number;

  @Field(() => Float, { nullable: true, description: "USD per million prompt tokens, for a cost bound." })
  @IsOptional()
  @Min(0)
  inputPricePerMillionTokens?: number;

  @Field(() => Float, { nullable: true, description: "USD per million output tokens, for a cost bound." })
  @IsOptional()
  @Min(0)
  outputPricePerMillionTokens?: number;
}

@ObjectType()
export class GridEstimateRow {
  @Field(() => Sample)
  sample: Sample;

  @Field(() => RunKind)
  kind: RunKind;

  @Field(() => MemorizationSetting, { nullable: true })
  setting: MemorizationSetting | null;

  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  repeats: number;

  @Field(() => String, {
    nullable: true,
    description:
      "QUIZ rows: where the original sits (a bias compensator quiz); null for the bias detector quiz.",
  })
  quizPosition: string | null;

  @Field(() => Int, {
    description: "Model calls: instances x repeats (option generation: the first generation).",
  })
  calls: number;

  @Field(() => Int, {
    description: "Calls at most: option generation with every regeneration it may take; else `calls`.",
  })
  maxCalls: number;

  @Field(() => Float, { description: "Prompt tokens over all calls." })
  promptTokens: number;

  @Field(() => Float, { description: "Prompt tokens at most (every regeneration); else `promptTokens`." })
  maxPromptTokens: number;

  @Field(() => Float, {
    description: "Output tokens if every call (and every regeneration) used its maximum.",
  })
  maxOutputTokens: number;

  @Field(() => Float, {
    description: "Tokens of this cell's largest call: its prompt plus the maximum output.",
  })
  largestCallTokens: number;
}

@ObjectType({ description: "Calls and tokens a grid would use, before anything runs." })
export class GridEstimate {
  @Field(() => [GridEstimateRow])
  rows: GridEstimateRow[];

  @Field(() => Int)
  calls: number;

  @Field(() => Int, { description: "Calls at most, with every option regeneration the quiz may take." })
  maxCalls: number;

  @Field(() => Float)
  promptTokens: number;

  @Field(() => Float)
  maxOutputTokens: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "Upper bound in USD (every call and regeneration, every output at its maximum); null without prices.",
  })
  maxCostUsd: number | null;

  @Field()
  tokenizer: string;

  @Field(() => [String], {
    description:
      "What would fail for certain on the given provider (a prompt larger than its tokens-per-minute limit); empty without a provider.",
  })
  warnings: string[];

  @Field({ description: "How exact the figures are." })
  note: string;
}

@ObjectType()
@InputType("JudgeExampleInput")
export class JudgeExampleView {
  @Field()
  @MaxLength(5_000)
  reference: string;

  @Field()
  @MaxLength(5_000)
  candidate: string;

  @Field({ description: "`exact match`, `near-exact match` or `inexact match`." })
  @MaxLength(50)
  answer: string;
}

@ObjectType({
  description:
    "A version of the LLM judge's prompt: an instruction and worked examples, then the pair to judge.",
})
export class JudgePromptView {
  @Field(() => Int)
  version: number;

  @Field()
  instruction: string;

  @Field(() => [JudgeExampleView])
  examples: JudgeExampleView[];

  @Field(() => String, { nullable: true })
  note: string | null;

  @Field()
  createdAt: Date;
}

@InputType({ description: "The next version of the LLM judge's prompt." })
export class CreateJudgePromptVersionInput {
  @Field()
  @MaxLength(20_000)
  instruction: string;

  @Field(() => [JudgeExampleView])
  @ArrayMaxSize(20)
  examples: JudgeExampleView[];

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(500)
  note?: string;
}
