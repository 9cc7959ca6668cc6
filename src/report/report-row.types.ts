import { ArrayMaxSize, IsOptional } from "class-validator";
import { Field, ID, InputType, Int } from "type-graphql";
import { ConnectionType } from "../graphql/connection";
import { MemorizationMeasure } from "../study/measures";
import { MemorizationSetting } from "../study/settings";
import { ReportFilter } from "./report.inputs";
import { ReportRow } from "./report-row.entity";

@InputType({ description: "Which report rows of one experiment; every list given narrows the rows." })
export class ReportRowFilter extends ReportFilter {
  @Field(() => [String], {
    nullable: true,
    description: "Row names (docs/REPORT-ROWS.md); a former name is read as the name it became (deprecated).",
  })
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

@InputType({
  description:
    "Which report rows of several experiments: those of the providers, models or experiments named (at most 50 " +
    "experiments), narrowed by every other list given.",
})
export class ReportRowsAcrossFilter {
  @Field(() => [String], { nullable: true, description: "Providers (as experiments name them)." })
  @IsOptional()
  @ArrayMaxSize(50)
  providers?: string[];

  @Field(() => [String], { nullable: true, description: "Models, as requested." })
  @IsOptional()
  @ArrayMaxSize(50)
  models?: string[];

  @Field(() => [ID], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(50)
  experimentIds?: string[];

  @Field(() => [String], {
    nullable: true,
    description: "Row names (docs/REPORT-ROWS.md); a former name is read as the name it became (deprecated).",
  })
  @IsOptional()
  @ArrayMaxSize(100)
  names?: string[];

  @Field(() => [String], { nullable: true, description: "Dataset names." })
  @IsOptional()
  @ArrayMaxSize(100)
  datasets?: string[];

  @Field(() => [MemorizationSetting], { nullable: true })
  @IsOptional()
  settings?: MemorizationSetting[];

  @Field(() => [Int], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(100)
  shots?: number[];

  @Field(() => [MemorizationMeasure], { nullable: true })
  @IsOptional()
  measures?: MemorizationMeasure[];
}

export const ReportRowConnection = ConnectionType("ReportRow", ReportRow);

/** `metrics`' filter, under its former name (`reportRows` takes `ReportRowFilter`). */
@InputType({ description: "The filter of the deprecated `metrics`: the same as ReportRowFilter." })
export class MetricFilter extends ReportRowFilter {}

/** `metricsAcross`' filter, under its former name. */
@InputType({
  description: "The filter of the deprecated `metricsAcross`: the same as ReportRowsAcrossFilter.",
})
export class MetricsAcrossFilter extends ReportRowsAcrossFilter {}
