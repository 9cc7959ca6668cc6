import { ArrayMaxSize, IsOptional } from "class-validator";
import { Field, ID, InputType } from "type-graphql";
import { ConnectionType } from "../graphql/connection";
import { MemorizationMeasure } from "../study/measures";
import { ReportFilter } from "./report.types";
import { Metric } from "./report-row.entity";

@InputType({ description: "Which metrics of one experiment; every list given narrows the rows." })
export class MetricFilter extends ReportFilter {
  @Field(() => [String], { nullable: true, description: "Metric names (docs/METRICS.md)." })
  @IsOptional()
  @ArrayMaxSize(100)
  names?: string[];

  @Field(() => [MemorizationMeasure], { nullable: true })
  @IsOptional()
  measures?: MemorizationMeasure[];

  @Field(() => [ID], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(100)
  sampleIds?: string[];

  @Field(() => Boolean, {
    nullable: true,
    description: "true: only rows pooled over several samples; false: only rows of one sample.",
  })
  @IsOptional()
  pooled?: boolean;
}

export const MetricConnection = ConnectionType("Metric", Metric);
