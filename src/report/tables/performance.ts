import { PerformanceRow } from "../rows/performance";
import { defineTable, interval, intervalMethod, markdownTable, num, pct, sampleLabel } from "./table";

export { PerformanceRow };

declare module "./table" {
  interface ReportTables {
    performance: PerformanceRow[];
  }
}

export const performanceTable = defineTable<"performance">({
  field: "performance",
  type: () => [PerformanceRow],
  compute: (inputs) => inputs.read("performance"),
  markdown: {
    title: "Performance",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "k",
          "repeats",
          "n",
          "correct",
          "unparseable",
          "failed",
          "accuracy",
          "95% CI",
          "interval",
          "mean over repeats",
          "sd over repeats",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.shots,
          row.repeats,
          row.n,
          row.correct,
          row.unparseable,
          row.failed,
          pct(row.accuracy),
          interval(row.ciLow, row.ciHigh),
          intervalMethod(row.intervalMethod),
          pct(row.meanAccuracy),
          num(row.accuracyStandardDeviation),
        ]),
      ),
  },
  statistics: [
    "accuracy",
    "mean_accuracy",
    "accuracy_sd",
    "between_sample_sd",
    "unparseable_share",
    "failed",
  ],
  flat: (rows, emit) => {
    for (const row of rows) {
      emit("accuracy", row, row.accuracy, {
        numerator: row.correct,
        denominator: row.n,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
      });
      emit("mean_accuracy", row, row.meanAccuracy, { denominator: row.repeats });
      emit("accuracy_sd", row, row.accuracyStandardDeviation, { denominator: row.repeats });
      if (row.betweenSampleStandardDeviation !== null)
        emit("between_sample_sd", row, row.betweenSampleStandardDeviation, { denominator: row.samples });
      emit("unparseable_share", row, row.n > 0 ? row.unparseable / row.n : null, {
        numerator: row.unparseable,
        denominator: row.n,
      });
      emit("failed", row, row.failed);
    }
  },
  formerNames: { "performance.accuracy.between_sample_sd": "between_sample_sd" },
});
