import { transitionRates } from "../analyses";
import { TransitionRateRow, TransitionRow } from "../rows/transitions";
import { defineTable, EFFECTIVE_JUDGE, interval, markdownTable, pct, pValue, sampleLabel } from "./table";

export { TransitionRateRow, TransitionRow };

declare module "./table" {
  interface ReportTables {
    transitionRates: TransitionRateRow[];
    nearExactToExact: TransitionRow[];
  }
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
