import {
  ArrayMinSize,
  IsOptional,
  IsPositive,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from "class-validator";
import { Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { Experiment } from "../experiment/experiment.entity";
import { GridInput } from "../experiment/grid.input";
import { MemorizationSetting, RunKind } from "../study/settings";
import { JudgeInput } from "./judge.input";
import { Run } from "./run.entity";

@InputType({ description: "One run: a sample, a kind, a setting (memorization), k, a model." })
export class StartRunInput {
  @Field(() => ID)
  sampleId: string;

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

  @Field({ description: "A provider configured on the server (`simulated` is built in)." })
  @MaxLength(100)
  provider: string;

  @Field()
  @Matches(/^\S.{0,199}$/, { message: "model: 1-200 characters" })
  model: string;

  @Field(() => Float, { defaultValue: 0 })
  @Min(0)
  @Max(2)
  temperature: number;

  @Field(() => Int, {
    nullable: true,
    description: "Default: 100 for memorization, 10 for performance (as in the study).",
  })
  @IsOptional()
  @Min(1)
  @Max(100_000)
  maxOutputTokens?: number;

  @Field(() => Int, {
    nullable: true,
    description: "Calls per instance. Default: 1 for memorization, 3 for performance.",
  })
  @IsOptional()
  @Min(1)
  @Max(100)
  repeats?: number;

  @Field(() => Int, { nullable: true, description: "Template version; the latest when absent." })
  @IsOptional()
  @Min(1)
  templateVersion?: number;

  @Field({
    defaultValue: true,
    description: "Reuse stored responses to identical requests (same repeat number).",
  })
  cache: boolean;

  @Field(() => JudgeInput, {
    nullable: true,
    description: "Judges memorization answers as they land; the heuristic judge when absent.",
  })
  @IsOptional()
  @ValidateNested()
  judge?: JudgeInput;

  @Field(() => Boolean, {
    nullable: true,
    description:
      "Send the calls through the provider's Batch API (batch prices, answers within its window); default: the " +
      "provider's `batch` option. Needs a provider configured with `batch`.",
  })
  @IsOptional()
  batch?: boolean;

  @Field(() => Float, {
    nullable: true,
    description:
      "The run's budget in US dollars: no call starts that could take the cost, counting the worst case of the calls " +
      "in flight, above it; the runs pause (PAUSED_BUDGET) instead, and raising it (setBudget) resumes them. Needs " +
      "the provider's prices for the model.",
  })
  @IsOptional()
  @IsPositive()
  maxCostUsd?: number;

  @Field(() => String, {
    nullable: true,
    description: "Sending the same key again returns the run it created.",
  })
  @IsOptional()
  @MaxLength(200)
  idempotencyKey?: string;
}

@InputType({ description: "The model that writes a quiz's options, and how many tries an instance gets." })
export class QuizGeneratorInput {
  @Field({ description: "A provider configured on the server." })
  @MaxLength(100)
  provider: string;

  @Field()
  @Matches(/^\S.{0,199}$/, { message: "model: 1-200 characters" })
  model: string;

  @Field(() => Int, {
    defaultValue: 3,
    description:
      "Generations an instance may take: options that fail the checks are generated again until this many were tried.",
  })
  @Min(1)
  @Max(10)
  generations: number;
}

@InputType({
  description: "A second model that scores the same texts (the LOGPROB method's reference ratio).",
})
export class LogprobReferenceInput {
  @Field({ description: "A provider configured on the server, returning prompt log-probabilities." })
  @MaxLength(100)
  provider: string;

  @Field()
  @Matches(/^\S.{0,199}$/, { message: "model: 1-200 characters" })
  model: string;
}

@InputType({
  description:
    "Whether a sample's instances were in the model's training data, when the lab knows (a calibration study): " +
    "the LOGPROB method then reports how well each score tells members from non-members.",
})
export class MembershipLabelInput {
  @Field(() => ID)
  sampleId: string;

  @Field({ description: "The sample's instances were in the training data." })
  member: boolean;

  @Field({
    defaultValue: "all",
    description: "Members and non-members are compared within a group (a dataset's two splits, say).",
  })
  @MaxLength(100)
  group: string;
}

@InputType({
  description: "The grid for one model: every sample x k x (memorization settings + performance).",
})
export class StartExperimentInput extends GridInput {
  @Field()
  @MaxLength(200)
  name: string;

  @Field()
  @MaxLength(100)
  provider: string;

  @Field()
  @Matches(/^\S.{0,199}$/, { message: "model: 1-200 characters" })
  model: string;

  @Field(() => [RunKind], { defaultValue: [RunKind.MEMORIZATION, RunKind.PERFORMANCE] })
  @ArrayMinSize(1)
  declare kinds: RunKind[];

  @Field(() => Float, { defaultValue: 0 })
  @Min(0)
  @Max(2)
  temperature: number;

  @Field({ defaultValue: true })
  cache: boolean;

  @Field(() => QuizGeneratorInput, {
    nullable: true,
    description:
      "The QUIZ method: the model that writes the options (at temperature 1, as the authors). When absent, each " +
      "sample's quiz reuses the options an earlier experiment generated for it (whatever model it examined), so " +
      "every examined model answers the same quiz; the examined model writes them for a sample that has none. " +
      "An option set of the sample by the same generator, prompt version and generations is reused.",
  })
  @IsOptional()
  @ValidateNested()
  quizGenerator?: QuizGeneratorInput;

  @Field(() => LogprobReferenceInput, {
    nullable: true,
    description: "The LOGPROB method: a reference model whose log-likelihood the reference score subtracts.",
  })
  @IsOptional()
  @ValidateNested()
  logprobReference?: LogprobReferenceInput;

  @Field(() => [MembershipLabelInput], {
    nullable: true,
    description:
      "The LOGPROB method's calibration: which samples are members and which are not. Without labels, a sample " +
      "is tested against its dataset's control (a dataset marked controlOf it).",
  })
  @IsOptional()
  @ValidateNested({ each: true })
  membership?: MembershipLabelInput[];

  @Field(() => JudgeInput, {
    nullable: true,
    description: "Judges memorization answers as they land; the heuristic judge when absent.",
  })
  @IsOptional()
  @ValidateNested()
  judge?: JudgeInput;

  @Field(() => Boolean, {
    nullable: true,
    description:
      "Send the calls through the provider's Batch API (batch prices, answers within its window); default: the " +
      "provider's `batch` option. Needs a provider configured with `batch`.",
  })
  @IsOptional()
  batch?: boolean;

  @Field(() => Float, {
    nullable: true,
    description:
      "The budget of all the experiment's runs together in US dollars: no call starts that could take the cost, counting the worst case of the calls " +
      "in flight, above it; the runs pause (PAUSED_BUDGET) instead, and raising it (setBudget) resumes them. Needs " +
      "the provider's prices for the model.",
  })
  @IsOptional()
  @IsPositive()
  maxCostUsd?: number;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  idempotencyKey?: string;
}

@ObjectType()
export class StartRunPayload {
  @Field(() => Run)
  run: Run;

  @Field({ description: "False when the idempotency key had been used: this is the run it created then." })
  created: boolean;

  @Field(() => [String], {
    description:
      "What may keep the run from moving (e.g. no live worker can call its provider); empty when nothing.",
  })
  warnings: string[];
}

@ObjectType()
export class StartExperimentPayload {
  @Field(() => Experiment)
  experiment: Experiment;

  @Field(() => [Run])
  runs: Run[];

  @Field()
  created: boolean;

  @Field(() => [String], {
    description:
      "What may keep the runs from moving (e.g. no live worker can call the provider); empty when nothing.",
  })
  warnings: string[];
}

@InputType()
export class RunIdInput {
  @Field(() => ID)
  runId: string;
}

@ObjectType()
export class RunPayload {
  @Field(() => Run)
  run: Run;

  @Field(() => Int, { description: "Completions affected (queued again, or skipped)." })
  affectedCount: number;
}

@InputType()
export class RunFilter {
  @Field(() => ID, { nullable: true })
  @IsOptional()
  experimentId?: string;

  @Field(() => ID, { nullable: true })
  @IsOptional()
  sampleId?: string;
}
