import { IsOptional, Length } from "class-validator";
import { Field, InputType } from "type-graphql";
import { ConnectionType } from "../graphql/connection";
import { Experiment } from "./experiment.entity";

export const ExperimentConnection = ConnectionType("Experiment", Experiment);

@InputType()
export class ExperimentFilter {
  @Field(() => String, { nullable: true, description: "Experiments whose name contains this (any case)." })
  @IsOptional()
  @Length(1, 200)
  nameContains?: string;
}
