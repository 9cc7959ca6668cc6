import { MemorizationSetting } from "../../study/settings";
import { GuidedGeneralRow } from "../rows/guided-general";
import { defineTable, markdownTable, pValue, sampleLabel } from "./table";

export { GuidedGeneralRow };

declare module "./table" {
  interface ReportTables {
    guidedVsGeneral: GuidedGeneralRow[];
  }
}

export const guidedVsGeneralTable = defineTable<"guidedVsGeneral">({
  field: "guidedVsGeneral",
  type: () => [GuidedGeneralRow],
  description:
    "Time Travel's Algorithm 1 (guided vs general instruction, ROUGE-L, bootstrapped) per sample and k; empty " +
    "without both settings.",
  compute: (inputs) => inputs.read("guidedVsGeneral"),
  markdown: {
    title:
      "Time Travel's Algorithm 1: guided against general instruction (ROUGE-L, one-sided bootstrap, 10,000 resamples)",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "split",
          "k",
          "instances",
          "guided",
          "general",
          "difference",
          "p (paired)",
          "p (unpaired)",
          "significant",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.split ?? "",
          row.shots,
          row.instances,
          row.guidedMean.toFixed(3),
          row.generalMean.toFixed(3),
          row.difference === null ? "" : row.difference.toFixed(3),
          pValue(row.pValuePaired),
          pValue(row.pValueUnpaired),
          row.significant ? "yes" : "no",
        ]),
      ),
  },
  statistics: ["guided_rouge_l", "general_rouge_l", "difference", "p_paired", "p_unpaired", "significant"],
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = {
        ...row,
        setting: MemorizationSetting.FULL_INFORMATION,
        otherSetting: MemorizationSetting.GENERAL_INSTRUCTION,
      };
      const n = { denominator: row.instances };
      emit("guided_rouge_l", scope, row.guidedMean, n);
      emit("general_rouge_l", scope, row.generalMean, n);
      emit("difference", scope, row.difference, n);
      emit("p_paired", scope, row.pValuePaired, n);
      emit("p_unpaired", scope, row.pValueUnpaired, n);
      emit("significant", scope, row.significant, n);
    }
  },
});
