import { ArrayMaxSize, ArrayMinSize, IsOptional, Max, Min, ValidateNested } from "class-validator";
import { Field, Float, ID, InputType, Int } from "type-graphql";
import { CDD_SAMPLING, CDD_THRESHOLDS, NGRAM_N, NGRAM_SAMPLING } from "../study/grid";
import { DEFAULT_METHODS, StudyMethod } from "../study/methods";
import { ContinuationPrompt, DEFAULT_SETTINGS, MemorizationSetting, RunKind } from "../study/settings";

@InputType({
  description:
    "The CDD method (Dong et al. 2024): per instance, one greedy continuation and `samples` at `temperature`, and " +
    "the thresholds of the authors' rule (alpha, xi); the authors' values by default.",
})
export class CddInput {
  @Field(() => ContinuationPrompt, { defaultValue: CDD_SAMPLING.prompt })
  prompt: ContinuationPrompt;

  @Field(() => Int, {
    defaultValue: CDD_SAMPLING.samples,
    description: "Sampled continuations per instance.",
  })
  @Min(2)
  @Max(200)
  samples: number;

  @Field(() => Float, { defaultValue: CDD_SAMPLING.temperature })
  @Min(0.01)
  @Max(2)
  temperature: number;

  @Field(() => Float, {
    defaultValue: CDD_THRESHOLDS.alpha,
    description:
      "A sample is near the greedy continuation within alpha x the longest one's length (token edits).",
  })
  @Min(0)
  @Max(0.99)
  alpha: number;

  @Field(() => Float, {
    defaultValue: CDD_THRESHOLDS.xi,
    description: "An instance is leaked when more than xi of its samples are near (the authors' rule).",
  })
  @Min(0)
  @Max(0.99)
  xi: number;
}

@InputType({
  description:
    "N-gram coverage (Hallinan et al. 2025): per instance, `samples` continuations at `temperature` and `topP`, " +
    "and the shortest run of words that counts (n); the authors' values by default.",
})
export class NgramCoverageInput {
  @Field(() => ContinuationPrompt, { defaultValue: NGRAM_SAMPLING.prompt })
  prompt: ContinuationPrompt;

  @Field(() => Int, {
    defaultValue: NGRAM_SAMPLING.samples,
    description: "Sampled continuations per instance.",
  })
  @Min(1)
  @Max(200)
  samples: number;

  @Field(() => Float, { defaultValue: NGRAM_SAMPLING.temperature })
  @Min(0.01)
  @Max(2)
  temperature: number;

  @Field(() => Float, { defaultValue: NGRAM_SAMPLING.topP, description: "Nucleus sampling's top_p." })
  @Min(0.01)
  @Max(1)
  topP: number;

  @Field(() => Int, { defaultValue: NGRAM_N, description: "The shortest run of words that counts." })
  @Min(1)
  @Max(20)
  n: number;
}

/** The fields that describe a grid, shared by starting an experiment and pricing one. */
@InputType({
  description: "The fields that describe a grid (the base of StartExperimentInput and EstimateGridInput).",
})
export abstract class GridInput {
  @Field(() => [ID])
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  sampleIds: string[];

  @Field(() => [RunKind], {
    defaultValue: [RunKind.MEMORIZATION, RunKind.PERFORMANCE],
    description:
      "MEMORIZATION and PERFORMANCE (the replication method's runs); the quiz's come with methods.",
  })
  kinds: RunKind[];

  @Field(() => [StudyMethod], {
    defaultValue: [...DEFAULT_METHODS],
    description:
      "The methods whose runs the grid holds: REPLICATION (the settings and performance), GUIDED_GENERAL (full " +
      "information and the general instruction, Time Travel's Algorithm 1), QUIZ (the Data Contamination Quiz: " +
      "option generation once per sample and generator, the bias detector quiz and four bias compensator quizzes), " +
      "LOGPROB (prompt log-probabilities) and CDD (sampled continuations, `cdd`).",
  })
  @ArrayMinSize(1)
  methods: StudyMethod[];

  @Field(() => Int, {
    defaultValue: 1,
    description: "The quiz's answers: a letter (the authors allowed 1 token).",
  })
  @Min(1)
  @Max(100)
  quizMaxOutputTokens: number;

  @Field(() => Int, {
    defaultValue: 1500,
    description: "Option generation: four perturbations of an instance.",
  })
  @Min(16)
  @Max(16000)
  quizOptionsMaxOutputTokens: number;

  @Field(() => [MemorizationSetting], {
    defaultValue: [...DEFAULT_SETTINGS],
    description: "The study's three settings and the general-instruction control, unless told otherwise.",
  })
  settings: MemorizationSetting[];

  @Field(() => [Int], { nullable: true, description: "k values; each sample's own when absent." })
  @IsOptional()
  @ArrayMaxSize(20)
  shots?: number[];

  @Field(() => Int, {
    defaultValue: 3,
    description: "Repeats of each performance prompt (the study averages 3).",
  })
  @Min(1)
  @Max(100)
  performanceRepeats: number;

  @Field(() => Int, {
    defaultValue: 100,
    description: "Memorization answers, and the CDD method's continuations.",
  })
  @Min(1)
  memorizationMaxOutputTokens: number;

  @Field(() => NgramCoverageInput, {
    nullable: true,
    description:
      "N-gram coverage's sampling; the authors' when absent (methods: [NGRAM_COVERAGE] adds its run per sample).",
  })
  @IsOptional()
  @ValidateNested()
  ngramCoverage?: NgramCoverageInput;

  @Field(() => CddInput, {
    nullable: true,
    description: "The CDD method's sampling; the authors' when absent (methods: [CDD] adds its runs).",
  })
  @IsOptional()
  @ValidateNested()
  cdd?: CddInput;

  @Field(() => Int, { defaultValue: 10 })
  @Min(1)
  performanceMaxOutputTokens: number;
}
