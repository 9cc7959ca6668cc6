import { MemorizationMeasure } from "../../study/measures";
import { settingComparisons, zeroVsK } from "../analyses";
import { PairedComparisonRow } from "../rows/paired";
import {
  defineTable,
  EFFECTIVE_JUDGE,
  type Emit,
  holmSlot,
  markdownTable,
  pct,
  pValue,
  sampleLabel,
} from "./table";

export { PairedComparisonRow };

declare module "./table" {
  interface ReportTables {
    settingComparisons: PairedComparisonRow[];
    zeroVsK: PairedComparisonRow[];
  }
}

const STATISTICS = [
  "mcnemar_p",
  "mcnemar_p_holm",
  "pairs",
  "both",
  "only_a",
  "only_b",
  "neither",
  "rate_a",
  "rate_b",
  "difference",
] as const;

function pairedMarkdown(rows: PairedComparisonRow[]): string {
  return markdownTable(
    [
      "dataset",
      "sample",
      "A",
      "B",
      "pairs",
      "both",
      "only A",
      "only B",
      "neither",
      "rate A",
      "rate B",
      "McNemar p",
      "Holm p",
    ],
    rows.map((row) => [
      row.dataset,
      sampleLabel(row),
      `${row.settingA} k=${row.shotsA}`,
      `${row.settingB} k=${row.shotsB}`,
      row.pairs,
      row.bothMemorized,
      row.onlyA,
      row.onlyB,
      row.neither,
      pct(row.rateA),
      pct(row.rateB),
      pValue(row.pValue),
      pValue(row.pValueHolm),
    ]),
  );
}

function pairedRows(rows: PairedComparisonRow[], emit: Emit): void {
  for (const row of rows) {
    const scope = {
      ...row,
      setting: row.settingA,
      shots: row.shotsA,
      otherSetting: row.settingB,
      otherShots: row.shotsB,
      measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
      judge: EFFECTIVE_JUDGE,
    };
    const discordant = { numerator: row.onlyA, denominator: row.onlyA + row.onlyB };
    emit("mcnemar_p", scope, row.pValue, discordant);
    emit("mcnemar_p_holm", scope, row.pValueHolm, discordant);
    emit("pairs", scope, row.pairs);
    emit("both", scope, row.bothMemorized, { denominator: row.pairs });
    emit("only_a", scope, row.onlyA, { denominator: row.pairs });
    emit("only_b", scope, row.onlyB, { denominator: row.pairs });
    emit("neither", scope, row.neither, { denominator: row.pairs });
    emit("rate_a", scope, row.rateA, { denominator: row.pairs });
    emit("rate_b", scope, row.rateB, { denominator: row.pairs });
    emit("difference", scope, row.difference ?? null, { denominator: row.pairs });
  }
}

const formerNames = (prefix: string) =>
  Object.fromEntries(
    ["mcnemar_p", "mcnemar_p_holm", "pairs", "difference"].map((s) => [`${prefix}.${s}`, s]),
  );

export const settingComparisonsTable = defineTable<"settingComparisons">({
  field: "settingComparisons",
  type: () => [PairedComparisonRow],
  description: "McNemar between each pair of settings at each k, on the same instances.",
  compute: async (inputs) => settingComparisons(await inputs.instances(), await inputs.samples()),
  tests: {
    family: "settings: McNemar",
    slots: (rows) => rows.map((row) => holmSlot(row, "pValue", "pValueHolm")),
  },
  markdown: { title: "Settings compared on the same instances (McNemar)", body: pairedMarkdown },
  statistics: STATISTICS,
  flat: pairedRows,
  formerNames: formerNames("setting_comparison"),
});

export const zeroVsKTable = defineTable<"zeroVsK">({
  field: "zeroVsK",
  type: () => [PairedComparisonRow],
  description: "McNemar between k = 0 and each k > 0 in each setting, on the same instances.",
  compute: async (inputs) => zeroVsK(await inputs.instances(), await inputs.samples()),
  tests: {
    family: "zero- vs k-shot: McNemar",
    slots: (rows) => rows.map((row) => holmSlot(row, "pValue", "pValueHolm")),
  },
  markdown: { title: "Zero-shot against k-shot on the same instances (McNemar)", body: pairedMarkdown },
  statistics: STATISTICS,
  flat: pairedRows,
  formerNames: formerNames("zero_vs_few_shot"),
});
