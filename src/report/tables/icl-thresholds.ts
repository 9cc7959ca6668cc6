import { iclThresholds } from "../analyses";
import { IclThresholdPoint, IclThresholdRow } from "../rows/icl-thresholds";
import { performanceVsZeroShotTable } from "./performance-vs-zero-shot";
import { defineTable, EFFECTIVE_JUDGE, markdownTable, pct, pValue, sampleLabel } from "./table";

export { IclThresholdPoint, IclThresholdRow };

declare module "./table" {
  interface ReportTables {
    iclThresholds: IclThresholdRow[];
  }
}

const STATISTICS = ["threshold", "highest_without_gain", "memorization_rate", "gain", "gain_p"] as const;

export const iclThresholdsTable = defineTable<"iclThresholds">({
  field: "iclThresholds",
  type: () => [IclThresholdRow],
  description: "Does ICL beat zero-shot once memorization reaches some level? Per sample and setting.",
  compute: async (inputs) =>
    iclThresholds(
      await inputs.instances(),
      await inputs.table(performanceVsZeroShotTable),
      await inputs.samples(),
    ),
  markdown: {
    title:
      "Does ICL beat zero-shot once memorization reaches some level? (the paper's threshold; McNemar, raw p)",
    body: (rows) =>
      markdownTable(
        ["dataset", "sample", "setting", "k: memorized / gain (p)", "threshold", "highest without gain"],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.points
            .map(
              (point) =>
                `k=${point.shots}: ${pct(point.memorizationRate)} / ${pct(point.gain)} (${pValue(point.pValue)})${point.significantGain ? "*" : ""}`,
            )
            .join("; "),
          pct(row.threshold),
          pct(row.highestWithoutGain),
        ]),
      ),
  },
  statistics: STATISTICS,
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, judge: EFFECTIVE_JUDGE };
      emit("threshold", scope, row.threshold, { denominator: row.points.length });
      emit("highest_without_gain", scope, row.highestWithoutGain, { denominator: row.points.length });
      for (const point of row.points) {
        const at = { ...scope, shots: point.shots, otherShots: 0 };
        emit("memorization_rate", at, point.memorizationRate);
        emit("gain", at, point.gain);
        emit("gain_p", at, point.pValue);
      }
    }
  },
  formerNames: Object.fromEntries(STATISTICS.map((statistic) => [`icl_threshold.${statistic}`, statistic])),
});
