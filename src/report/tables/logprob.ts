import { logprobCalibration } from "../analyses";
import {
  LogprobCalibrationRow,
  LogprobControlTest,
  LogprobEvidence,
  LogprobFailureReason,
  LogprobRunOutcome,
  LogprobScoreSummary,
} from "../rows/logprob";
import { defineTable, interval, markdownTable, num, pct } from "./table";

export {
  LogprobCalibrationRow,
  LogprobControlTest,
  LogprobEvidence,
  LogprobFailureReason,
  LogprobRunOutcome,
  LogprobScoreSummary,
};

// The LOGPROB method's calibration table (the evidence and row types are in ../rows/logprob.ts).

declare module "./table" {
  interface ReportTables {
    logprobCalibration: LogprobCalibrationRow[];
  }
}

export const logprobCalibrationTable = defineTable<"logprobCalibration">({
  field: "logprobCalibration",
  type: () => [LogprobCalibrationRow],
  description:
    "The LOGPROB method's calibration, per label group and score: ROC AUC and TPR at 1% and 5% FPR (needs " +
    "membership labels).",
  compute: async (inputs) => logprobCalibration(await inputs.read("logprob")),
  markdown: {
    title:
      "Logprob calibration (members against non-members, per score; ROC AUC with Hanley-McNeil's 95% interval)",
    body: (rows) =>
      rows.length === 0
        ? "No labelled logprob study in this experiment (methods: LOGPROB with membership labels)."
        : markdownTable(
            ["group", "score", "members", "non-members", "AUC", "TPR at 1% FPR", "TPR at 5% FPR"],
            rows.map((row) => [
              row.group,
              row.score,
              row.members,
              row.nonMembers,
              `${num(row.auc)} ${interval(row.aucLow, row.aucHigh)}`,
              pct(row.tprAt1PercentFpr),
              pct(row.tprAt5PercentFpr),
            ]),
          ),
  },
  statistics: ["auc", "tpr_at_1_percent_fpr", "tpr_at_5_percent_fpr"],
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = {
        sampleId: null,
        sampleName: null,
        sampleSeed: null,
        group: `label=${row.group};score=${row.score}`,
      };
      const counts = { numerator: row.members, denominator: row.members + row.nonMembers };
      emit("auc", scope, row.auc, { ...counts, ciLow: row.aucLow, ciHigh: row.aucHigh });
      emit("tpr_at_1_percent_fpr", scope, row.tprAt1PercentFpr, counts);
      emit("tpr_at_5_percent_fpr", scope, row.tprAt5PercentFpr, counts);
    }
  },
});
