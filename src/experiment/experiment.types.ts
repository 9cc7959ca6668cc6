import { IsOptional, Length } from "class-validator";
import { Field, ID, InputType } from "type-graphql";
import { ConnectionType } from "../graphql/connection";
import { Experiment } from "./experiment.entity";

export const ExperimentConnection = ConnectionType("Experiment", Experiment);

@InputType()
export class ExperimentFilter {
  @Field(() => String, { nullable: true, description: "Experiments whose name contains this (any case)." })
  @IsOptional()
  @Length(1, 200)
  nameContains?: string;

  @Field(() => String, { nullable: true, description: "Experiments of this model (as requested), exactly." })
  @IsOptional()
  @Length(1, 200)
  model?: string;

  @Field(() => String, { nullable: true, description: "Experiments on this provider, exactly." })
  @IsOptional()
  @Length(1, 100)
  provider?: string;

  @Field(() => ID, { nullable: true, description: "Experiments with a run on this sample." })
  @IsOptional()
  sampleId?: string;

  @Field(() => String, {
    nullable: true,
    description: "Experiments with a run on a sample of this dataset (its name).",
  })
  @IsOptional()
  @Length(1, 200)
  dataset?: string;
}
