// The row types of the report table in ../tables/memorization.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { IntervalMethod } from "../../study/measures";
import { Regime } from "../../study/regime";
import { MemorizationSetting } from "../../study/settings";
import { SampleScoped } from "../tables/scope";

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

  @Field(() => Int, {
    description:
      "Near-exact verdicts in n that rest on a span the heuristic judge cannot class (a rewording, a clause added " +
      "or dropped): the span may change a fact. 0 for exact-only memorization and once an LLM judge or a reviewer " +
      "settled them.",
  })
  unsureNearExact: number;

  @Field(() => Int, {
    description:
      "Inexact verdicts in n that rest on a span the heuristic judge cannot class, where the answer still shares at " +
      "least half the reference in order: the span may say the same. 0 for exact-only memorization.",
  })
  unsureInexact: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "The judge's lower bound on the rate: the unsure near-exact verdicts counted as not memorized (exact and sure " +
      "near-exact only). Not a sampling interval: see ciLow/ciHigh for that.",
  })
  judgeLow: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "The judge's upper bound on the rate: the unsure inexact verdicts counted as memorized too.",
  })
  judgeHigh: number | null;

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
