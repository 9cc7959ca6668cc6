import { ArrayMaxSize, ArrayMinSize, IsOptional, Max, Min } from "class-validator";
import { Field, ID, InputType, Int } from "type-graphql";
import { DEFAULT_METHODS, StudyMethod } from "../study/methods";
import { DEFAULT_SETTINGS, MemorizationSetting, RunKind } from "../study/settings";

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
      "option generation once per sample and generator, the bias detector quiz and four bias compensator quizzes).",
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

  @Field(() => Int, { defaultValue: 100 })
  @Min(1)
  memorizationMaxOutputTokens: number;

  @Field(() => Int, { defaultValue: 10 })
  @Min(1)
  performanceMaxOutputTokens: number;
}
