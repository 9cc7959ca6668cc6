import { correlations } from "../analyses";
import { CorrelationPoint, CorrelationRow } from "../rows/correlations";
import { performanceTable } from "./performance";
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

export { CorrelationPoint, CorrelationRow };

declare module "./table" {
  interface ReportTables {
    correlations: CorrelationRow[];
  }
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
