import { Field, Float, ID, Int, ObjectType } from "../graphql/deferred-types";
import { MemorizationMeasure } from "../study/measures";
import { Regime } from "../study/regime";
import { MemorizationSetting, RunKind } from "../study/settings";

// What every report is about; what it is asked with is in report.inputs.ts, the tables in tables/, one file each,
// and the study report that gathers them in study-report.ts.

@ObjectType({
  description: "What a report is about: the experiment, its model and the versions that made it.",
})
export class ReportSubject {
  @Field({ description: "The experiment's name." })
  experimentName: string;

  @Field()
  provider: string;

  @Field({ description: "The model the experiment asked for." })
  requestedModel: string;

  @Field(() => [String], { description: "The model names the provider reported, as its runs recorded them." })
  reportedModels: string[];

  @Field(() => [String], {
    description: "Prompt templates used, as key and version (`memorization/... v2`).",
  })
  templateVersions: string[];

  @Field(() => [String], {
    description: "The judges its runs judged memorization answers with, as they were started.",
  })
  judges: string[];
}

@ObjectType({
  description:
    "Experiment A against experiment B in one cell (dataset x setting x k for memorization, dataset x k for " +
    "performance), on the dataset instances both ran: memorized (or correct) or not, each instance by the " +
    "majority of its completions; McNemar's exact test on the discordant instances, Holm over the comparison.",
})
export class ModelComparisonRow {
  @Field(() => ID)
  experimentA: string;

  @Field(() => ID)
  experimentB: string;

  @Field(() => RunKind)
  kind: RunKind;

  @Field(() => MemorizationMeasure, { nullable: true, description: "Memorization rows: the measure." })
  measure: MemorizationMeasure | null;

  @Field()
  dataset: string;

  @Field(() => MemorizationSetting, { nullable: true })
  setting: MemorizationSetting | null;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Instances both experiments ran (and judged) in this cell." })
  pairs: number;

  @Field(() => Int)
  both: number;

  @Field(() => Int, { description: "Memorized (or correct) in A only." })
  onlyA: number;

  @Field(() => Int, { description: "In B only." })
  onlyB: number;

  @Field(() => Int)
  neither: number;

  @Field(() => Float)
  rateA: number;

  @Field(() => Float)
  rateB: number;

  @Field(() => Float, { description: "rateA - rateB over the same instances." })
  difference: number;

  @Field(() => Float, {
    nullable: true,
    description: "McNemar's exact test (two-sided); null with no discordant pair.",
  })
  pValue: number | null;

  @Field(() => Float, { nullable: true, description: "Holm-adjusted over the comparison's tests." })
  pValueHolm: number | null;
}

@ObjectType({ description: "One experiment of a comparison: which model it ran." })
export class ComparedExperiment {
  @Field(() => ID)
  experimentId: string;

  @Field(() => ReportSubject)
  subject: ReportSubject;
}

@ObjectType({
  description:
    "Two or more experiments that share datasets, side by side: each pair compared cell by cell on the instances " +
    "both ran, and each experiment's whole study report.",
})
export class ExperimentComparison {
  @Field({ description: "When the results compared were read (as StudyReport.computedAt)." })
  computedAt: Date;

  @Field(() => [ComparedExperiment])
  experiments: ComparedExperiment[];

  @Field(() => [String], { description: "The datasets every experiment ran." })
  datasets: string[];

  @Field(() => [ModelComparisonRow])
  rows: ModelComparisonRow[];

  @Field(() => [String], {
    description:
      "What to know before the p-values: experiments run on different samples (cells pair only the instances both " +
      "drew) and cells that pair fewer than 30 instances, with how many.",
  })
  warnings: string[];

  @Field(() => Int)
  hypothesisTests: number;

  @Field()
  multipleComparisons: string;
}
