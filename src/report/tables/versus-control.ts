import { MemorizationMeasure } from "../../study/measures";
import { versusControl } from "../analyses";
import { ControlComparisonRow } from "../rows/versus-control";
import { defineTable, EFFECTIVE_JUDGE, holmSlot, interval, markdownTable, pct, pValue } from "./table";

export { ControlComparisonRow };

declare module "./table" {
  interface ReportTables {
    versusControl: ControlComparisonRow[];
  }
}

export const versusControlTable = defineTable<"versusControl">({
  field: "versusControl",
  type: () => [ControlComparisonRow],
  description:
    "Each rate against its control dataset's (a control), per dataset, setting and k; empty without a control.",
  compute: async (inputs) =>
    versusControl(await inputs.instances(), await inputs.samples(), (await inputs.targets()).trivial),
  tests: {
    family: "against a control dataset: Fisher",
    slots: (rows) => rows.map((row) => holmSlot(row, "pValue", "pValueHolm")),
  },
  markdown: {
    title: "Control: each dataset against its control dataset (each instance once; Newcombe, Fisher)",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "control",
          "setting",
          "k",
          "rate",
          "control rate",
          "difference",
          "95% CI",
          "p",
          "p (Holm)",
        ],
        rows.map((row) => [
          row.dataset,
          row.controlDataset,
          row.setting,
          row.shots,
          `${pct(row.rate)} (${row.memorized}/${row.instances})`,
          `${pct(row.controlRate)} (${row.controlMemorized}/${row.controlInstances})`,
          pct(row.difference),
          interval(row.differenceCiLow, row.differenceCiHigh),
          pValue(row.pValue),
          pValue(row.pValueHolm ?? null),
        ]),
      ),
  },
  statistics: ["rate", "control_rate", "difference", "fisher_p", "fisher_p_holm"],
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = {
        sampleId: null,
        sampleName: null,
        sampleSeed: null,
        dataset: row.dataset,
        setting: row.setting,
        shots: row.shots,
        measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
        judge: EFFECTIVE_JUDGE,
        otherDataset: row.controlDataset,
      };
      emit("rate", scope, row.rate, {
        numerator: row.memorized,
        denominator: row.instances,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
      });
      emit("control_rate", scope, row.controlRate, {
        numerator: row.controlMemorized,
        denominator: row.controlInstances,
        ciLow: row.controlCiLow,
        ciHigh: row.controlCiHigh,
      });
      emit("difference", scope, row.difference, { ciLow: row.differenceCiLow, ciHigh: row.differenceCiHigh });
      emit("fisher_p", scope, row.pValue);
      emit("fisher_p_holm", scope, row.pValueHolm ?? null);
    }
  },
  formerNames: {
    "control.dataset_rate": "rate",
    "control.control_rate": "control_rate",
    "control.difference": "difference",
    "control.fisher_p": "fisher_p",
    "control.fisher_p_holm": "fisher_p_holm",
  },
});
