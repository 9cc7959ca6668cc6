import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { MemorizationSetting } from "../../study/settings";
import { transitionRates } from "../analyses";
import { SampleScoped } from "./scope";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, pValue, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    transitionRates: TransitionRateRow[];
    nearExactToExact: TransitionRow[];
  }
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

const STATISTICS = ["near_exact_to_exact", "inexact_to_exact", "difference", "fisher_p"] as const;

export const transitionRatesTable = defineTable<"transitionRates">({
  field: "transitionRates",
  type: () => [TransitionRateRow],
  description: "Near-exact -> exact rates for every pair of k.",
  compute: async (inputs) => transitionRates(await inputs.instances(), await inputs.samples()),
  markdown: {
    title: "Near-exact matches that become exact as k grows",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "setting",
          "from k",
          "to k",
          "near-exact at from",
          "exact at to",
          "rate",
          "95% CI",
          "baseline: inexact -> exact",
          "difference (95% CI)",
          "Fisher p",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.fromShots,
          row.toShots,
          row.nearExact,
          row.becameExact,
          pct(row.rate),
          interval(row.ciLow, row.ciHigh),
          row.inexact ? `${pct(row.baselineRate)} (${row.inexactBecameExact}/${row.inexact})` : "",
          row.difference == null
            ? ""
            : `${pct(row.difference)} (${interval(row.differenceCiLow, row.differenceCiHigh)})`,
          pValue(row.pValue),
        ]),
      ),
  },
  statistics: STATISTICS,
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, shots: row.fromShots, otherShots: row.toShots, judge: EFFECTIVE_JUDGE };
      emit("near_exact_to_exact", scope, row.rate, {
        numerator: row.becameExact,
        denominator: row.nearExact,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
      });
      emit("inexact_to_exact", scope, row.baselineRate, {
        numerator: row.inexactBecameExact,
        denominator: row.inexact,
        ciLow: row.baselineCiLow,
        ciHigh: row.baselineCiHigh,
      });
      emit("difference", scope, row.difference, { ciLow: row.differenceCiLow, ciHigh: row.differenceCiHigh });
      emit("fisher_p", scope, row.pValue);
    }
  },
  formerNames: Object.fromEntries(STATISTICS.map((statistic) => [`transition.${statistic}`, statistic])),
});

export const nearExactToExactTable = defineTable<"nearExactToExact">({
  field: "nearExactToExact",
  type: () => [TransitionRow],
  description: "The instances behind the transition rates (at most 1,000).",
  compute: (inputs) => inputs.read("nearExactToExact"),
  statistics: [],
});
