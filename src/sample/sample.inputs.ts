import {
  ArrayMaxSize,
  ArrayMinSize,
  IsIn,
  IsInt,
  IsOptional,
  Matches,
  Max,
  MaxLength,
  Min,
} from "class-validator";
import { Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { TRIVIAL_TARGET_WORDS } from "../study/targets";
import { SAMPLE_ALGORITHM_VERSION, SAMPLE_ALGORITHM_VERSIONS } from "./design/design-sample";
import { Sample } from "./sample.entity";

@InputType({ description: "What to draw. Same dataset files + seed + parameters = the same sample, reused." })
export class CreateSampleInput {
  @Field(() => ID)
  datasetId: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  name?: string;

  @Field(() => Int, {
    nullable: true,
    description: "Recorded on the sample; a random one is drawn when absent.",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  seed?: number;

  @Field(() => Int, { defaultValue: 200 })
  @Min(1)
  @Max(100_000)
  instanceCount: number;

  @Field(() => Int, { defaultValue: 200 })
  @Min(0)
  @Max(100_000)
  demonstrationCount: number;

  @Field({ defaultValue: "train", description: "Split the instances under test come from." })
  @Matches(/^[\w-]{1,50}$/)
  instanceSplit: string;

  @Field({ defaultValue: "train", description: "Split the demonstrations come from." })
  @Matches(/^[\w-]{1,50}$/)
  demonstrationSplit: string;

  @Field(() => [Int], { defaultValue: [0, 25, 50, 100, 200] })
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(100_000, { each: true })
  shotCounts: number[];

  @Field(() => Float, { defaultValue: 0.6 })
  @Min(0.01)
  @Max(0.99)
  cutMin: number;

  @Field(() => Float, { defaultValue: 0.8 })
  @Min(0.01)
  @Max(0.99)
  cutMax: number;

  @Field(() => Int, {
    defaultValue: SAMPLE_ALGORITHM_VERSION,
    description:
      "The design version: 3 (the default) draws cuts that leave a non-trivial reference where the range allows " +
      "and leaves out instances under test that share an initial segment with another or begin a " +
      "demonstration's text; 2 reproduces samples drawn before it.",
  })
  @IsIn([...SAMPLE_ALGORITHM_VERSIONS], {
    message: `designVersion: one of ${SAMPLE_ALGORITHM_VERSIONS.join(", ")}`,
  })
  designVersion?: number;

  @Field(() => Int, {
    defaultValue: TRIVIAL_TARGET_WORDS,
    description:
      "Design version 3: the fewest words (lower case, punctuation dropped) a reference should have; fewer " +
      "makes it trivial (a one- or two-word match says nothing about memory).",
  })
  @Min(1)
  @Max(50)
  minTargetWords?: number;
}

@ObjectType()
export class CreateSamplePayload {
  @Field(() => Sample)
  sample: Sample;

  @Field({ description: "False when the same sample existed already and was returned." })
  created: boolean;
}

@ObjectType({ description: "A row left out of the sample, and why." })
export class SampleExclusionView {
  @Field(() => ID)
  instanceId: string;

  @Field()
  reason: string;
}

@InputType()
export class SampleFilter {
  @Field(() => ID, { nullable: true })
  @IsOptional()
  datasetId?: string;
}
