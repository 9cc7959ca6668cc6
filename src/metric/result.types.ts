import { ArrayMaxSize, IsOptional } from "class-validator";
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { MemorizationSetting } from "../run/run.entity";

export enum MemorizationMeasure {
  /** The study's main measure. */
  EXACT_OR_NEAR_EXACT = "EXACT_OR_NEAR_EXACT",
  EXACT_ONLY = "EXACT_ONLY",
}
registerEnumType(MemorizationMeasure, { name: "MemorizationMeasure" });

export enum BreakdownGroup {
  DATASET = "DATASET",
  SETTING = "SETTING",
  SHOTS = "SHOTS",
  REGIME = "REGIME",
}
registerEnumType(BreakdownGroup, { name: "BreakdownGroup" });

export enum RegimeName {
  ZERO_SHOT = "ZERO_SHOT",
  FEW_SHOT = "FEW_SHOT",
  MANY_SHOT = "MANY_SHOT",
}
registerEnumType(RegimeName, { name: "Regime", description: "k = 0; k <= 50 (25, 50); k > 50 (100, 200)." });

@InputType()
export class ResultFilter {
  @Field(() => ID)
  experimentId: string;

  @Field(() => [String], { nullable: true, description: "Dataset names." })
  @IsOptional()
  @ArrayMaxSize(100)
  datasets?: string[];

  @Field(() => [MemorizationSetting], { nullable: true })
  @IsOptional()
  settings?: MemorizationSetting[];

  @Field(() => [Int], { nullable: true })
  @IsOptional()
  shots?: number[];

  @Field(() => [RegimeName], { nullable: true })
  @IsOptional()
  regimes?: RegimeName[];
}

@ObjectType({
  description:
    "Memorization of a group of instances: the share of judged completions whose effective verdict is exact or " +
    "near-exact (or exact only), with a 95% Wilson score interval. Unjudged completions are counted apart, not in n.",
})
export class MemorizationBreakdownRow {
  @Field(() => String, { nullable: true })
  dataset: string | null;

  @Field(() => MemorizationSetting, { nullable: true })
  setting: MemorizationSetting | null;

  @Field(() => Int, { nullable: true })
  shots: number | null;

  @Field(() => RegimeName, { nullable: true })
  regime: RegimeName | null;

  @Field(() => Int, { description: "Judged completions (exact + near-exact + inexact): the denominator." })
  n: number;

  @Field(() => Int)
  exact: number;

  @Field(() => Int)
  nearExact: number;

  @Field(() => Int)
  inexact: number;

  @Field(() => Int, { description: "Completions without a readable verdict yet." })
  unjudged: number;

  @Field(() => Int, { description: "The numerator: exact + near-exact, or exact only." })
  memorized: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;
}

@ObjectType({
  description: "Accuracy of the performance runs per dataset x k: mean and spread over repeats.",
})
export class PerformanceRow {
  @Field()
  dataset: string;

  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  repeats: number;

  @Field(() => Int, { description: "Completions over all repeats." })
  n: number;

  @Field(() => Int)
  correct: number;

  @Field(() => Int, { description: "Answers no label could be read from (counted wrong)." })
  unparseable: number;

  @Field(() => Float, { nullable: true, description: "Mean over repeats of each repeat's accuracy." })
  meanAccuracy: number | null;

  @Field(() => Float, { nullable: true, description: "Sample standard deviation over repeats." })
  accuracyStandardDeviation: number | null;
}

@ObjectType()
export class AccuracyGroup {
  @Field(() => Int, { description: "Instances in the group." })
  instances: number;

  @Field(() => Int, { description: "Performance completions of those instances (all repeats)." })
  n: number;

  @Field(() => Int)
  correct: number;

  @Field(() => Float, { nullable: true })
  accuracy: number | null;
}

@ObjectType({
  description:
    "Performance accuracy (same dataset, same k, all repeats) on the instances whose effective verdict in the " +
    "memorization run of this setting and k is exact or near-exact (memorized) vs inexact (not memorized). " +
    "Unjudged instances are in neither group.",
})
export class MemorizedVsNotRow {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => AccuracyGroup)
  memorized: AccuracyGroup;

  @Field(() => AccuracyGroup)
  notMemorized: AccuracyGroup;
}

@ObjectType()
export class CorrelationPoint {
  @Field(() => Int)
  shots: number;

  @Field(() => Float)
  memorization: number;

  @Field(() => Float)
  performance: number;
}

@ObjectType({ description: "Correlation across k between mean performance accuracy and memorization rate." })
export class CorrelationRow {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => MemorizationMeasure)
  measure: MemorizationMeasure;

  @Field(() => [CorrelationPoint], { description: "The k values where both figures exist." })
  points: CorrelationPoint[];

  @Field(() => Int)
  n: number;

  @Field(() => Float, {
    nullable: true,
    description: "Pearson's r (null when a series is constant or n < 2).",
  })
  pearson: number | null;

  @Field(() => Float, { nullable: true, description: "Two-sided p-value of Pearson's r (t-test, n - 2 df)." })
  pearsonPValue: number | null;

  @Field(() => Float, { nullable: true })
  spearman: number | null;

  @Field(() => Float, { nullable: true })
  spearmanPValue: number | null;
}

@ObjectType({
  description: "An instance judged NEAR_EXACT at one k and EXACT at a larger k, in the same setting.",
})
export class TransitionRow {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  fromShots: number;

  @Field(() => Int)
  toShots: number;

  @Field(() => ID)
  sampledInstanceId: string;

  @Field()
  initialSegment: string;

  @Field()
  subsequentSegment: string;

  @Field(() => String, { nullable: true })
  nearExactOutput: string | null;

  @Field(() => String, { nullable: true })
  exactOutput: string | null;
}

@ObjectType({
  description:
    "The original method's verdict: contaminated when at least one exact or at least two near-exact matches.",
})
export class ContaminationRow {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  exact: number;

  @Field(() => Int)
  nearExact: number;

  @Field()
  contaminated: boolean;
}

@ObjectType({ description: "Every table of the study for one experiment (and the data behind its figures)." })
export class StudyReport {
  @Field(() => ID)
  experimentId: string;

  @Field(() => [MemorizationBreakdownRow], { description: "dataset x setting x k, exact or near-exact." })
  memorization: MemorizationBreakdownRow[];

  @Field(() => [MemorizationBreakdownRow], { description: "dataset x setting x k, exact only." })
  memorizationExactOnly: MemorizationBreakdownRow[];

  @Field(() => [MemorizationBreakdownRow], {
    description: "dataset x setting x regime, exact or near-exact.",
  })
  memorizationByRegime: MemorizationBreakdownRow[];

  @Field(() => [PerformanceRow])
  performance: PerformanceRow[];

  @Field(() => [MemorizedVsNotRow])
  memorizedVsNotMemorized: MemorizedVsNotRow[];

  @Field(() => [CorrelationRow])
  correlations: CorrelationRow[];

  @Field(() => [TransitionRow])
  nearExactToExact: TransitionRow[];

  @Field(() => [ContaminationRow])
  contamination: ContaminationRow[];
}
