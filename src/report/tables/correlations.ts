import { Field, Float, Int, ObjectType } from "type-graphql";
import { MemorizationMeasure } from "../../study/measures";
import { MemorizationSetting } from "../../study/settings";
import { correlations } from "../analyses";
import { performanceTable } from "./performance";
import { HOLM, SampleScoped } from "./scope";
import {
  defineTable,
  EFFECTIVE_JUDGE,
  holmSlot,
  interval,
  markdownTable,
  num,
  pValue,
  sampleLabel,
} from "./table";

declare module "./table" {
  interface ReportTables {
    correlations: CorrelationRow[];
  }
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

const STATISTICS = [
  "pearson",
  "pearson_p",
  "pearson_p_holm",
  "pearson_permutation_p",
  "spearman",
  "spearman_p",
  "spearman_p_holm",
] as const;

export const correlationsTable = defineTable<"correlations">({
  field: "correlations",
  type: () => [CorrelationRow],
  compute: async (inputs) =>
    correlations(await inputs.cells(), await inputs.table(performanceTable), await inputs.samples()),
  tests: {
    family: "correlations: Pearson and Spearman",
    slots: (rows) =>
      rows.flatMap((row) => [
        holmSlot(row, "pearsonPValue", "pearsonPValueHolm"),
        holmSlot(row, "spearmanPValue", "spearmanPValueHolm"),
      ]),
  },
  markdown: {
    title: "Correlation of performance and memorization across k",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "setting",
          "measure",
          "points",
          "Pearson r",
          "95% CI (bootstrap; none below 10 points)",
          "p",
          "Holm p",
          "exact permutation p",
          "Spearman rho",
          "p",
          "Holm p",
          "Spearman p method",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.measure,
          row.n,
          row.pearsonDescriptive ? `${num(row.pearson)} (descriptive)` : num(row.pearson),
          interval(row.pearsonCiLow, row.pearsonCiHigh, (value) => num(value)),
          pValue(row.pearsonPValue),
          pValue(row.pearsonPValueHolm),
          pValue(row.pearsonPermutationPValue),
          num(row.spearman),
          pValue(row.spearmanPValue),
          pValue(row.spearmanPValueHolm),
          row.spearmanPValueMethod ?? "",
        ]),
      ),
  },
  statistics: STATISTICS,
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, judge: EFFECTIVE_JUDGE };
      const n = { denominator: row.n };
      emit("pearson", scope, row.pearson, { ...n, ciLow: row.pearsonCiLow, ciHigh: row.pearsonCiHigh });
      emit("pearson_p", scope, row.pearsonPValue, n);
      emit("pearson_p_holm", scope, row.pearsonPValueHolm, n);
      emit("pearson_permutation_p", scope, row.pearsonPermutationPValue, n);
      emit("spearman", scope, row.spearman, n);
      emit("spearman_p", scope, row.spearmanPValue, n);
      emit("spearman_p_holm", scope, row.spearmanPValueHolm, n);
    }
  },
  formerNames: Object.fromEntries(STATISTICS.map((statistic) => [`correlation.${statistic}`, statistic])),
});
