import { ArrayMaxSize, IsOptional } from "class-validator";
import { Field, Float, ID, InputType, Int, InterfaceType, ObjectType } from "type-graphql";
import { ContaminationVerdict } from "../study/contamination-verdict";
import { IntervalMethod, MemorizationMeasure } from "../study/measures";
import { Regime } from "../study/regime";
import { MemorizationSetting, RunKind } from "../study/settings";
import { LogprobCalibrationRow, LogprobEvidence } from "./logprob.types";

/** Which sample a row describes; all null on a row pooled over several samples. */
@InterfaceType({
  description: "A row about one sample of a dataset, or pooled over several (sample fields null).",
})
export abstract class SampleScoped {
  @Field(() => ID, { nullable: true, description: "The sample; null on a row pooled over several samples." })
  sampleId: string | null;

  @Field(() => String, { nullable: true })
  sampleName: string | null;

  @Field(() => String, { nullable: true, description: "The sample's seed." })
  sampleSeed: string | null;
}

const HOLM =
  "Holm-adjusted over every test of the study report (see StudyReport.multipleComparisons); null outside it.";

/**
 * What narrows the report of one experiment: the fields every report filter shares. `ResultFilter` (the report's
 * tables) and `MetricFilter` (its flat rows) extend it; GraphQL keeps their two names, the code has one filter.
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

@ObjectType({
  description:
    "Memorization of a group of instances: the share of judged completions whose effective verdict is exact or " +
    "near-exact (or exact only), with a 95% interval: Wilson when each instance counts once, else a cluster " +
    "bootstrap over instances. Unjudged completions are counted apart, not in n. Grouped by sample, a dataset " +
    "with several samples also gets a pooled row (sampleId null) with the spread between its samples.",
  implements: SampleScoped,
})
export class MemorizationBreakdownRow extends SampleScoped {
  @Field({
    description:
      "When the results this row counts were read. Older than the latest writes only while a run is going (by at " +
      "most about 24 times (MEMICL_RESULTS_SPACING_FACTOR) what its experiment's report and breakdowns take to " +
      "compute, at least 1 s, plus one " +
      "computation; `fresh: true` waits for " +
      "the current state); once the runs are done, never.",
  })
  computedAt: Date;

  @Field(() => String, { nullable: true })
  dataset: string | null;

  @Field(() => MemorizationSetting, { nullable: true })
  setting: MemorizationSetting | null;

  @Field(() => Int, { nullable: true })
  shots: number | null;

  @Field(() => Regime, { nullable: true })
  regime: Regime | null;

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

  @Field(() => IntervalMethod, { nullable: true })
  intervalMethod: IntervalMethod | null;

  @Field(() => Int, { description: "Samples the row pools." })
  samples: number;

  @Field(() => Float, {
    nullable: true,
    description: "Sample standard deviation of the rate between the pooled samples (null for one sample).",
  })
  betweenSampleStandardDeviation: number | null;
}

@ObjectType({
  description:
    "Accuracy of the performance runs per dataset (and sample) x k: pooled accuracy with a 95% interval, the mean " +
    "and spread over repeats, and the failed and unparseable counts beside it.",
  implements: SampleScoped,
})
export class PerformanceRow extends SampleScoped {
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

  @Field(() => Int, { description: "Calls that failed for good (no answer; not in n)." })
  failed: number;

  @Field(() => Float, { nullable: true, description: "correct / n over all repeats." })
  accuracy: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;

  @Field(() => IntervalMethod, { nullable: true })
  intervalMethod: IntervalMethod | null;

  @Field(() => Int, { description: "Samples the row pools." })
  samples: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "Sample standard deviation of the accuracy between the pooled samples (null for one sample).",
  })
  betweenSampleStandardDeviation: number | null;

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

  @Field(() => Int, { description: "Of those completions, the correct ones." })
  correct: number;

  @Field(() => Float, { nullable: true, description: "correct / n: accuracy over every repeat." })
  accuracy: number | null;

  @Field(() => Int, {
    description:
      "Instances correct on the majority of their repeats (a tie counts as not correct): the unit of the " +
      "difference, its interval and the test.",
  })
  correctInstances: number;
}

@ObjectType({
  description:
    "Performance accuracy (same sample, same k, all repeats) on the instances that are memorized (exact or " +
    "near-exact) in this setting and k vs those that are not, with the difference, its 95% Newcombe interval and " +
    "Fisher's exact test, all three over instances (each counted once: correct on the majority of its repeats), " +
    "not completions: at temperature 0 the repeats agree, and counting them as independent made the test reject " +
    "a true null 24% of the time at alpha 0.05. An instance with several judged completions in the cell is " +
    "memorized when at least half of them are. Unjudged instances are in neither group.",
  implements: SampleScoped,
})
export class MemorizedVsNotRow extends SampleScoped {
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

  @Field(() => Float, {
    nullable: true,
    description: "Share of instances correct, memorized minus not memorized (see correctInstances).",
  })
  difference: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiLow: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiHigh: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "Fisher's exact test (two-sided) of correct/wrong x memorized/not, over instances.",
  })
  pValue: number | null;

  @Field(() => Float, { nullable: true, description: HOLM })
  pValueHolm: number | null;
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

@ObjectType({
  description:
    "Correlation across k between mean performance accuracy and memorization rate, per sample: Pearson's r with " +
    "its t-test p and a seeded bootstrap 95% interval; Spearman's rho with an exact permutation p for n <= 10.",
  implements: SampleScoped,
})
export class CorrelationRow extends SampleScoped {
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

  @Field(() => Float, { nullable: true, description: HOLM })
  pearsonPValueHolm: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "Percentile bootstrap interval of r over the points (2,000 resamples, fixed seed); null below 10 points, " +
      "where resampling a handful of points gives an interval that only looks informative (see pearsonDescriptive).",
  })
  pearsonCiLow: number | null;

  @Field(() => Float, { nullable: true })
  pearsonCiHigh: number | null;

  @Field(() => Boolean, {
    description:
      "True below 10 points (the study's grid has 5 k values): r describes these points; read its exact " +
      "permutation p, not an interval.",
  })
  pearsonDescriptive: boolean;

  @Field(() => Float, {
    nullable: true,
    description:
      "Two-sided exact permutation p of r over every pairing of the points (3 to 8 points; null otherwise), " +
      "as scipy's pearsonr with an exact PermutationMethod: no normality assumed.",
  })
  pearsonPermutationPValue: number | null;

  @Field(() => Float, { nullable: true })
  spearman: number | null;

  @Field(() => Float, { nullable: true })
  spearmanPValue: number | null;

  @Field(() => Float, { nullable: true, description: HOLM })
  spearmanPValueHolm: number | null;

  @Field(() => String, {
    nullable: true,
    description: "How Spearman's p was computed: exact permutation (n <= 10) or t-distribution.",
  })
  spearmanPValueMethod: string | null;
}

@ObjectType({
  description:
    "Memorization over the instances whose reference is not trivial (at least 3 words after lower-casing and " +
    "dropping punctuation), per sample, setting and k: each instance counts once (the majority of its judged " +
    "completions), with a Wilson interval; the trivial ones left out are counted.",
  implements: SampleScoped,
})
export class NonTrivialMemorizationRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Judged instances with a non-trivial reference." })
  instances: number;

  @Field(() => Int, { description: "Of those, memorized (exact or near-exact)." })
  memorized: number;

  @Field(() => Int, { description: "Judged instances left out because their reference is trivial." })
  trivialInstances: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;
}

@ObjectType({
  description:
    "Time Travel's Algorithm 1 per sample and k: each instance's ROUGE-L F (rouge_score's tokenisation, no " +
    "stemmer, rounded to 2 decimals) under the guided instruction (FULL_INFORMATION) and the general one " +
    "(GENERAL_INSTRUCTION), and one-sided bootstrap p-values that the guided mean is higher: paired (the default) " +
    "and unpaired (as the authors' helper). BLEURT is not computed (it needs a TensorFlow checkpoint).",
  implements: SampleScoped,
})
export class GuidedGeneralRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => String, { nullable: true, description: "The split of the instances under test." })
  split: string | null;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Instances scored under both instructions." })
  instances: number;

  @Field(() => Float)
  guidedMean: number;

  @Field(() => Float)
  generalMean: number;

  @Field(() => Float, { nullable: true, description: "Mean per-instance guided - general." })
  difference: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "Paired bootstrap: share of resampled mean differences <= 0.",
  })
  pValuePaired: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "Unpaired bootstrap (bootstrap_helper.py's): 1 - share of resamples with the guided mean higher.",
  })
  pValueUnpaired: number | null;

  @Field({ description: "pValuePaired <= 0.05: Time Travel's contamination signal." })
  significant: boolean;

  @Field(() => Int)
  resamples: number;

  @Field(() => Int, { description: "The bootstrap's seed." })
  seed: number;
}

@ObjectType({ description: "One k of a threshold analysis: memorization there, and the performance gain." })
export class IclThresholdPoint {
  @Field(() => Int)
  shots: number;

  @Field(() => Float, { description: "Memorized share of the instances at this k (each once)." })
  memorizationRate: number;

  @Field(() => Float, { description: "Accuracy at k minus at k = 0, on the same instances." })
  gain: number;

  @Field(() => Float, { nullable: true, description: "McNemar's exact test of the gain, raw." })
  pValue: number | null;

  @Field({ description: "The gain is positive and p < 0.05." })
  significantGain: boolean;
}

@ObjectType({
  description:
    "The paper's threshold per sample and memorization setting: at each k > 0 the memorization rate beside the " +
    "performance gain over zero-shot; the lowest memorization rate with a significant gain (raw p < 0.05), and " +
    "the highest without one. Null where no k shows (or every k shows) a significant gain.",
  implements: SampleScoped,
})
export class IclThresholdRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => [IclThresholdPoint])
  points: IclThresholdPoint[];

  @Field(() => Float, { nullable: true })
  threshold: number | null;

  @Field(() => Float, { nullable: true })
  highestWithoutGain: number | null;
}

@ObjectType({
  description:
    "Memorization per sample, setting and k within one group of instances: their label, or their reference's " +
    "length in words (lower case, punctuation dropped). Each instance once (the majority of its completions), " +
    "Wilson intervals.",
  implements: SampleScoped,
})
export class TargetGroupRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field({ description: "LABEL or REFERENCE_LENGTH." })
  groupBy: string;

  @Field({ description: "The label, or the length bucket (0-2, 3-5, 6-10, 11-20, 21+ words)." })
  group: string;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  memorized: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;
}

@ObjectType({
  description:
    "A dataset's memorization against its control dataset's (data the model cannot have memorized, marked with " +
    "updateDataset's controlOf), per setting and k run on both, over non-trivial targets only (a short target " +
    "is cheap to match): each instance once (the majority of its completions), over every sample of each; the " +
    "difference with Newcombe's interval, Fisher's exact test.",
})
export class ControlComparisonRow {
  @Field()
  dataset: string;

  @Field({ description: "The control dataset." })
  controlDataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Samples of the dataset in the experiment." })
  samples: number;

  @Field(() => Int, { description: "Samples of the control." })
  controlSamples: number;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  memorized: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;

  @Field(() => Int)
  controlInstances: number;

  @Field(() => Int)
  controlMemorized: number;

  @Field(() => Float, { nullable: true })
  controlRate: number | null;

  @Field(() => Float, { nullable: true })
  controlCiLow: number | null;

  @Field(() => Float, { nullable: true })
  controlCiHigh: number | null;

  @Field(() => Float, { nullable: true, description: "rate - controlRate." })
  difference: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiLow: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiHigh: number | null;

  @Field(() => Float, { nullable: true, description: "Fisher's exact test, two-sided, raw." })
  pValue: number | null;

  @Field(() => Float, { nullable: true, description: "Holm-adjusted over the report's tests." })
  pValueHolm?: number | null;
}

@ObjectType({
  description:
    "The no-memory floor of one memorization cell (sample x setting x k), a control computed without a model: " +
    "each judged instance counts once (the majority of its completions); it is within the floor when an answer " +
    "a model without memory could give (its input copied whole, by sentence or by clause; the sample's most " +
    "common other reference; '?' or '.') is judged exact or near-exact by the heuristic judge with its sibling " +
    "rule. Memorized above the floor: memorized, and not within the floor. Wilson intervals.",
  implements: SampleScoped,
})
export class NoMemoryFloorRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Judged instances of the cell." })
  instances: number;

  @Field(() => Int, { description: "Of those, memorized (exact or near-exact)." })
  memorized: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Int, { description: "Instances a no-memory answer gets exact or near-exact: the floor." })
  floorInstances: number;

  @Field(() => Int, { description: "Of the floor, by copying the input." })
  floorByCopy: number;

  @Field(() => Int, { description: "Of the floor, by a constant answer only." })
  floorByConstant: number;

  @Field(() => Int, {
    description: "Of the floor, only by copying a demonstration the k-shot prompt shows (floor-3 and later).",
  })
  floorByDemonstration: number;

  @Field(() => Int, { description: "Judged instances whose target is trivial (too short to tell memory)." })
  trivialInstances: number;

  @Field(() => Int, { description: "Non-trivial instances outside the floor: what a verdict is tested on." })
  eligibleInstances: number;

  @Field(() => Int, { description: "Of the eligible instances, memorized." })
  eligibleMemorized: number;

  @Field(() => Float, { nullable: true, description: "eligibleMemorized / eligibleInstances." })
  eligibleRate: number | null;

  @Field(() => Float, { nullable: true, description: "floorInstances / instances." })
  floorRate: number | null;

  @Field(() => Float, { nullable: true })
  floorCiLow: number | null;

  @Field(() => Float, { nullable: true })
  floorCiHigh: number | null;

  @Field(() => Int, { description: "Memorized instances not within the floor." })
  aboveFloor: number;

  @Field(() => Float, { nullable: true, description: "aboveFloor / instances: memorized above the floor." })
  aboveFloorRate: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiLow: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiHigh: number | null;

  @Field({ description: "The floor's rule (its no-memory answers), e.g. floor-1." })
  floorVersion: string;
}

@ObjectType({
  description:
    "In-context learning against zero-shot on performance, per sample and k > 0: the instances answered at both " +
    "k = 0 and k, each correct when more than half its repeats are, and McNemar's exact test on the discordant " +
    "ones. Raw p (outside the report's Holm family).",
  implements: SampleScoped,
})
export class PerformanceComparisonRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => Int, { description: "k (compared with k = 0)." })
  shots: number;

  @Field(() => Int, { description: "Instances answered at both k = 0 and k." })
  pairs: number;

  @Field(() => Int)
  bothCorrect: number;

  @Field(() => Int, { description: "Correct at k = 0 only." })
  onlyZeroShot: number;

  @Field(() => Int, { description: "Correct at k only." })
  onlyKShot: number;

  @Field(() => Int)
  neither: number;

  @Field(() => Float)
  accuracyZeroShot: number;

  @Field(() => Float)
  accuracyKShot: number;

  @Field(() => Float, { description: "accuracyKShot - accuracyZeroShot, over the same instances." })
  difference: number;

  @Field(() => Float, {
    nullable: true,
    description: "McNemar's exact test (two-sided); null with no discordant pair.",
  })
  pValue: number | null;
}

@ObjectType({
  description:
    "A paired comparison of memorization (exact or near-exact) on the same instances in two cells of one " +
    "sample: two settings at one k, or one setting at k = 0 and at k. McNemar's exact test on the discordant " +
    "instances. An instance with several judged completions in a cell is memorized when at least half are.",
  implements: SampleScoped,
})
export class PairedComparisonRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  settingA: MemorizationSetting;

  @Field(() => Int)
  shotsA: number;

  @Field(() => MemorizationSetting)
  settingB: MemorizationSetting;

  @Field(() => Int)
  shotsB: number;

  @Field(() => Int, { description: "Instances judged in both cells." })
  pairs: number;

  @Field(() => Int)
  bothMemorized: number;

  @Field(() => Int)
  onlyA: number;

  @Field(() => Int)
  onlyB: number;

  @Field(() => Int)
  neither: number;

  @Field(() => Float, { nullable: true })
  rateA: number | null;

  @Field(() => Float, { nullable: true })
  rateB: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "rateA - rateB over the same instances (guided against general: FULL_INFORMATION - GENERAL_INSTRUCTION).",
  })
  difference: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "McNemar's exact test (two-sided); null with no discordant pair.",
  })
  pValue: number | null;

  @Field(() => Float, { nullable: true, description: HOLM })
  pValueHolm: number | null;
}

@ObjectType({
  description:
    "Of the instances near-exact at one k, how many are exact at a larger k (same sample and setting), with a " +
    "95% Wilson interval.",
  implements: SampleScoped,
})
export class TransitionRateRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  fromShots: number;

  @Field(() => Int)
  toShots: number;

  @Field(() => Int, { description: "Instances near-exact at fromShots and judged at toShots." })
  nearExact: number;

  @Field(() => Int, { description: "Of those, exact at toShots." })
  becameExact: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;

  @Field(() => Int, {
    description: "The baseline: instances inexact at fromShots and judged at toShots.",
  })
  inexact: number;

  @Field(() => Int, { description: "Of those, exact at toShots." })
  inexactBecameExact: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "inexactBecameExact / inexact: how often an answer becomes exact without having been near-exact.",
  })
  baselineRate: number | null;

  @Field(() => Float, { nullable: true })
  baselineCiLow: number | null;

  @Field(() => Float, { nullable: true })
  baselineCiHigh: number | null;

  @Field(() => Float, { nullable: true, description: "rate - baselineRate, with Newcombe's 95% interval." })
  difference: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiLow: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiHigh: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "Fisher's exact test (two-sided) between the rate and its baseline; raw, not in the report's Holm family.",
  })
  pValue: number | null;
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

@ObjectType({ description: "One bias compensator quiz: the original at one letter, and what was answered." })
export class QuizCompensatorRow {
  @Field({ description: "Where the original sat." })
  letter: string;

  @Field({ description: "A letter the detector quiz shows the model does not prefer: its hits count." })
  nonPreferred: boolean;

  @Field(() => Int, { description: "Answers naming the original's letter." })
  hits: number;

  @Field(() => [Int], { description: "Answers A, B, C, D, E, in that order." })
  answers: number[];

  @Field(() => Int, { description: "Answers without a standalone letter A-E." })
  unreadable: number;

  @Field(() => Int, { description: "Calls that failed." })
  failed: number;
}

@ObjectType({
  description:
    "The Data Contamination Quiz on one sample: the option set, the bias detector quiz (letters the model prefers " +
    "with no original among the options), the bias compensator quizzes, and the detected contamination range " +
    "[lower, upper] (Golchin & Surdeanu): upper = hits of the best non-preferred letter / n; kappa = (hits - " +
    "detector answers of that letter) / (n - those); lower = max(kappa, hits of the second letter / n).",
  implements: SampleScoped,
})
export class QuizRangeRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => String, { nullable: true })
  split: string | null;

  @Field(() => ID)
  optionSetId: string;

  @Field()
  generatorProvider: string;

  @Field()
  generatorModel: string;

  @Field(() => Int)
  optionTemplateVersion: number;

  @Field(() => Int, { description: "n: instances with valid options, each quizzed once per quiz." })
  instances: number;

  @Field(() => Int, { description: "Instances of the sample." })
  sampledInstances: number;

  @Field(() => Int, { description: "Instances whose options were given up (every generation rejected)." })
  optionsGivenUp: number;

  @Field(() => Int, { description: "Generations rejected by the option checks." })
  rejectedGenerations: number;

  @Field(() => Int, { description: "Of those, generations that had the original among their options." })
  originalAmongOptions: number;

  @Field(() => [Int], { description: "The bias detector quiz's answers A, B, C, D, E, in that order." })
  bias: number[];

  @Field(() => Int)
  biasUnreadable: number;

  @Field(() => [String], {
    description: "Letters answered fewer than ceil(n / 5) times in the detector quiz.",
  })
  nonPreferred: string[];

  @Field(() => [QuizCompensatorRow])
  compensators: QuizCompensatorRow[];

  @Field(() => Float, { nullable: true })
  upper: number | null;

  @Field(() => Float, { nullable: true })
  lower: number | null;

  @Field(() => Float, { nullable: true })
  kappa: number | null;

  @Field(() => String, { nullable: true, description: "The best letter: most hits, then least bias." })
  best: string | null;

  @Field(() => String, { nullable: true })
  second: string | null;

  @Field({ description: "Every quiz run ended with nothing waiting." })
  complete: boolean;

  @Field(() => [String], { description: "Edge cases met, and what was done." })
  notes: string[];
}

@ObjectType({ description: "Time Travel's rule on the seeded 10-instance subset, guided instruction." })
export class TimeTravelEvidence {
  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  subsetJudged: number;

  @Field(() => Int)
  exact: number;

  @Field(() => Int)
  nearExact: number;

  @Field({
    description:
      "At least one exact or two near-exact: the paper's rule, not a verdict (see falsePositiveRate; the " +
      "replication evidence's verdict is the test).",
  })
  contaminated: boolean;

  @Field(() => Int, { description: "Non-trivial instances the 10-instance subset is drawn from." })
  pool: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "How often the rule fires for a model with no memory on this sample at this k: the hypergeometric chance " +
      "that a 10-instance subset of the pool holds 1 exact or 2 near-exact no-memory matches (an upper bound).",
  })
  falsePositiveRate: number | null;

  @Field(() => [ID])
  runIds: string[];

  @Field()
  cannotTell: string;
}

@ObjectType({ description: "The replication test at one k." })
export class ReplicationTest {
  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Judged instances of the full-information cell." })
  instances: number;

  @Field(() => Int, { description: "Of those, with a trivial target (left out)." })
  trivial: number;

  @Field(() => Int, { description: "Non-trivial ones a no-memory answer matches at this k (left out)." })
  floor: number;

  @Field(() => Int, { description: "Non-trivial, outside the floor: the test's trials." })
  eligible: number;

  @Field(() => Int, { description: "Eligible and memorized." })
  aboveFloor: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "One-sided exact binomial p against the allowance (raw).",
  })
  pValue: number | null;

  @Field(() => Int, { nullable: true, description: "The control dataset's eligible instances at this k." })
  controlEligible: number | null;

  @Field(() => Int, { nullable: true })
  controlAboveFloor: number | null;

  @Field(() => Float, { nullable: true, description: "One-sided Fisher p: above the control's rate (raw)." })
  controlPValue: number | null;
}

@ObjectType({
  description:
    "Replication under full information above its no-memory floor, beside the general instruction.",
})
export class ReplicationEvidence {
  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  memorized: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Int)
  floorInstances: number;

  @Field(() => Float, { nullable: true })
  floorRate: number | null;

  @Field(() => Int)
  aboveFloor: number;

  @Field(() => Float, { nullable: true })
  aboveFloorRate: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiLow: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiHigh: number | null;

  @Field({
    deprecationReason: "Not a test (true for any count above the floor): read verdict.",
    description: "The above-floor rate's 95% interval excludes 0.",
  })
  signal: boolean;

  @Field(() => ContaminationVerdict, {
    description:
      "The decision: memorized above the no-memory floor on non-trivial targets beyond a no-memory allowance " +
      "(and beyond the control dataset, where the experiment has one), at alpha, Bonferroni over the k tested.",
  })
  verdict: ContaminationVerdict;

  @Field(() => Float)
  alpha: number;

  @Field(() => Float, {
    description: "The eligible share a model without memory may reach (the null's rate).",
  })
  allowance: number;

  @Field(() => Int, { description: "The k values tested: the Bonferroni family." })
  family: number;

  @Field(() => Float, { nullable: true, description: "The smallest Bonferroni-adjusted p over the family." })
  pValue: number | null;

  @Field(() => Int, { nullable: true, description: "The k of that p." })
  verdictShots: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "The smallest rate the test detects with 80% power; null when no count could reject.",
  })
  minimumDetectableRate: number | null;

  @Field(() => [ReplicationTest])
  tests: ReplicationTest[];

  @Field({ description: "Why this verdict, in one sentence." })
  reason: string;

  @Field(() => Float, {
    nullable: true,
    description: "The general instruction's rate at the same k (the control).",
  })
  generalInstructionRate: number | null;

  @Field(() => Int, { nullable: true })
  generalInstructionInstances: number | null;

  @Field(() => [ID])
  runIds: string[];

  @Field()
  cannotTell: string;
}

@ObjectType({ description: "Time Travel's Algorithm 1 at the smallest k: guided vs general, by ROUGE-L." })
export class GuidedGeneralEvidence {
  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  instances: number;

  @Field(() => Float)
  guidedMean: number;

  @Field(() => Float)
  generalMean: number;

  @Field(() => Float, { nullable: true })
  pValuePaired: number | null;

  @Field(() => Float, { nullable: true })
  pValueUnpaired: number | null;

  @Field()
  significant: boolean;

  @Field(() => Int)
  resamples: number;

  @Field(() => [ID])
  runIds: string[];

  @Field()
  cannotTell: string;
}

@ObjectType({ description: "The Data Contamination Quiz's range with its runs." })
export class QuizEvidence {
  @Field(() => QuizRangeRow)
  range: QuizRangeRow;

  @Field(() => [ID])
  runIds: string[];

  @Field()
  cannotTell: string;
}

@ObjectType({
  description:
    "Every method's evidence of contamination for one sample (a dataset and split), side by side, each with its " +
    "counts, its runs and what it cannot tell; null where the experiment did not run the method. Not a score.",
  implements: SampleScoped,
})
export class ContaminationSummaryRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => String, { nullable: true })
  split: string | null;

  @Field(() => TimeTravelEvidence, { nullable: true })
  timeTravel: TimeTravelEvidence | null;

  @Field(() => ReplicationEvidence, { nullable: true })
  replication: ReplicationEvidence | null;

  @Field(() => GuidedGeneralEvidence, { nullable: true })
  guidedGeneral: GuidedGeneralEvidence | null;

  @Field(() => QuizEvidence, { nullable: true })
  quiz: QuizEvidence | null;

  @Field(() => LogprobEvidence, { nullable: true, description: "The LOGPROB method (open-weight models)." })
  logprob: LogprobEvidence | null;
}

@ObjectType({
  description:
    "The original method's verdict, applied as it was defined: on a fixed 10-instance subset of the sample " +
    "(chosen from the sample's seed), contaminated when at least one is exact or at least two are near-exact. " +
    "Beside it, the rate over every judged instance of the sample with its 95% Wilson interval.",
  implements: SampleScoped,
})
export class ContaminationRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, {
    description: "Instances of the subset judged in this cell (10 unless some are unjudged).",
  })
  subsetJudged: number;

  @Field(() => Int, { description: "Exact instances in the subset." })
  exact: number;

  @Field(() => Int, { description: "Near-exact instances in the subset." })
  nearExact: number;

  @Field({ description: "At least one exact or at least two near-exact in the subset." })
  contaminated: boolean;

  @Field(() => Int, { description: "Judged instances of the whole sample in this cell." })
  instances: number;

  @Field(() => Int, { description: "Of those, exact or near-exact." })
  memorizedInstances: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;
}

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
    "How often human reviewers agree with each other, on the completions every one of them reviewed (each " +
    "reviewer's latest verdict): Cohen's kappa for two reviewers, Fleiss' for more.",
})
export class ReviewerAgreement {
  @Field(() => [String], {
    description: "Every reviewer with a readable verdict in scope.",
  })
  reviewers: string[];

  @Field(() => Int, {
    description: "Completions every reviewer reviewed: the statistic is computed on these.",
  })
  items: number;

  @Field(() => Int, {
    description: "Completions reviewed by two or more reviewers but not by all, left out.",
  })
  excluded: number;

  @Field(() => String, {
    description: "COHEN (two reviewers), FLEISS (more) or NONE (no completion every reviewer reviewed).",
  })
  statistic: string;

  @Field(() => Float, { nullable: true, description: "Kappa over EXACT / NEAR_EXACT / INEXACT." })
  kappa: number | null;

  @Field(() => Float, { nullable: true, description: "Kappa over memorized (exact or near-exact) vs not." })
  kappaBinary: number | null;

  @Field(() => Float, { nullable: true, description: "Share of `items` on which every reviewer agreed." })
  percentAgreement: number | null;
}

@ObjectType({
  description:
    "Human review of the experiment's completions: the reviewers against each other, and the automatic judge " +
    "against the reviewers' majority.",
})
export class ReportReview {
  @Field(() => Int, { description: "Completions some human reviewed." })
  reviewed: number;

  @Field(() => ReviewerAgreement, {
    description: "Inter-annotator agreement (Cohen's kappa for two, Fleiss' for more).",
  })
  reviewers: ReviewerAgreement;

  @Field(() => Int, {
    description:
      "Completions with a reviewers' majority and a readable automatic verdict (the judge vs human pairs).",
  })
  judgeVsHumanN: number;

  @Field(() => Float, { nullable: true })
  judgeVsHumanAgreement: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "Cohen's kappa, latest automatic verdict vs the majority.",
  })
  judgeVsHumanKappa: number | null;

  @Field(() => Float, { nullable: true })
  judgeVsHumanKappaBinary: number | null;
}

@ObjectType({ description: "Every table of the study for one experiment (and the data behind its figures)." })
export class StudyReport {
  @Field(() => ID)
  experimentId: string;

  @Field({
    description:
      "When the results this report shows were read. The report is computed once per change of its experiment's " +
      "results (a completion, judgment, review, rejudge or run status touches its run); while a run is going a " +
      "read may return a value that lags the writes by at most about 24 times (MEMICL_RESULTS_SPACING_FACTOR) what " +
      "the experiment's report and breakdowns take to compute (at least 1 s) plus one computation (`fresh: true` " +
      "waits for the current state).",
  })
  computedAt: Date;

  @Field(() => ReportSubject, { description: "Which experiment, provider, model, templates and judges." })
  subject: ReportSubject;

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

  @Field(() => [PairedComparisonRow], {
    description: "McNemar between each pair of settings at each k, on the same instances.",
  })
  settingComparisons: PairedComparisonRow[];

  @Field(() => [PairedComparisonRow], {
    description: "McNemar between k = 0 and each k > 0 in each setting, on the same instances.",
  })
  zeroVsK: PairedComparisonRow[];

  @Field(() => [NonTrivialMemorizationRow], {
    description:
      "Memorization over non-trivial references only (at least 3 words), per sample, setting and k.",
  })
  memorizationNonTrivial: NonTrivialMemorizationRow[];

  @Field(() => [NoMemoryFloorRow], {
    description:
      "The no-memory floor beside each memorization rate (a control): what copying the input or a constant " +
      "answer would score, and the rate memorized above it, per sample, setting and k.",
  })
  noMemoryFloor: NoMemoryFloorRow[];

  @Field(() => [GuidedGeneralRow], {
    description:
      "Time Travel's Algorithm 1 (guided vs general instruction, ROUGE-L, bootstrapped) per sample and k; empty " +
      "without both settings.",
  })
  guidedVsGeneral: GuidedGeneralRow[];

  @Field(() => ReportReview, {
    nullable: true,
    description:
      "Human review: agreement between reviewers (Cohen's or Fleiss' kappa) beside the automatic judge's agreement " +
      "with the reviewers' majority.",
  })
  review?: ReportReview | null;

  @Field(() => [IclThresholdRow], {
    description: "Does ICL beat zero-shot once memorization reaches some level? Per sample and setting.",
  })
  iclThresholds: IclThresholdRow[];

  @Field(() => [TargetGroupRow], {
    description: "Memorization by label and by reference length, per sample, setting and k.",
  })
  memorizationByTarget: TargetGroupRow[];

  @Field(() => [ControlComparisonRow], {
    description:
      "Each rate against its control dataset's (a control), per dataset, setting and k; empty without a control.",
  })
  versusControl: ControlComparisonRow[];

  @Field(() => [PerformanceComparisonRow], {
    description: "Performance at each k against k = 0 on the same instances (McNemar, raw p).",
  })
  performanceVsZeroShot: PerformanceComparisonRow[];

  @Field(() => [TransitionRateRow], { description: "Near-exact -> exact rates for every pair of k." })
  transitionRates: TransitionRateRow[];

  @Field(() => [TransitionRow], { description: "The instances behind the transition rates (at most 1,000)." })
  nearExactToExact: TransitionRow[];

  @Field(() => [ContaminationRow])
  contamination: ContaminationRow[];

  @Field(() => [QuizRangeRow], { description: "The Data Contamination Quiz per sample (QUIZ method)." })
  quiz: QuizRangeRow[];

  @Field(() => [LogprobCalibrationRow], {
    description:
      "The LOGPROB method's calibration, per label group and score: ROC AUC and TPR at 1% and 5% FPR (needs " +
      "membership labels).",
  })
  logprobCalibration: LogprobCalibrationRow[];

  @Field(() => [ContaminationSummaryRow], {
    description: "Every method's evidence per sample, side by side (see contaminationSummary).",
  })
  contaminationSummary: ContaminationSummaryRow[];

  @Field(() => Int, { description: "Hypothesis tests with a p-value in this report: the Holm family." })
  hypothesisTests: number;

  @Field({ description: "How the report's p-values are adjusted for multiple comparisons." })
  multipleComparisons: string;
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
