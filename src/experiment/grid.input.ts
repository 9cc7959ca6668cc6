import { ArrayMaxSize, ArrayMinSize, IsOptional, Max, Min } from "class-validator";
import { Field, ID, InputType, Int } from "type-graphql";
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

  @Field(() => [RunKind], { defaultValue: [RunKind.MEMORIZATION, RunKind.PERFORMANCE] })
  kinds: RunKind[];

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
