import { ArrayMaxSize, IsOptional } from "class-validator";
import { Field, ID, InputType, Int } from "type-graphql";
import { Regime } from "../study/regime";
import { MemorizationSetting } from "../study/settings";

// What a report is asked with (validated GraphQL inputs); what it is about is in report.types.ts.

/**
 * What narrows the report of one experiment: the fields every report filter shares. `ResultFilter` (the report's
 * tables) and `ReportRowFilter` (its flat rows) extend it.
 */
@InputType()
export class ReportFilter {
  @Field(() => ID)
  experimentId: string;

  @Field(() => [String], { nullable: true, description: "Dataset names." })
  @IsOptional()
  @ArrayMaxSize(100)
  datasets?: string[];

  @Field(() => [MemorizationSetting], { nullable: true })
  @IsOptional()
  settings?: MemorizationSetting[];

  @Field(() => [Int], { nullable: true, description: "k values." })
  @IsOptional()
  @ArrayMaxSize(100)
  shots?: number[];
}

@InputType({ description: "Which cells of one experiment's report; every list given narrows the rows." })
export class ResultFilter extends ReportFilter {
  @Field(() => [Regime], { nullable: true })
  @IsOptional()
  regimes?: Regime[];
}
