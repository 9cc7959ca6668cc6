import { BreakdownGroup, MemorizationMeasure } from "../../study/measures";
import { MemorizationBreakdownRow } from "../rows/memorization";
import {
  defineTable,
  EFFECTIVE_JUDGE,
  type Emit,
  interval,
  intervalMethod,
  markdownTable,
  num,
  pct,
  type ReportTablesRead,
  sampleLabel,
} from "./table";

export { MemorizationBreakdownRow };

declare module "./table" {
  interface ReportTables {
    memorization: MemorizationBreakdownRow[];
    memorizationExactOnly: MemorizationBreakdownRow[];
    memorizationByRegime: MemorizationBreakdownRow[];
  }
}

const BY_CELL = [BreakdownGroup.DATASET, BreakdownGroup.SAMPLE, BreakdownGroup.SETTING, BreakdownGroup.SHOTS];
const BY_REGIME = [
  BreakdownGroup.DATASET,
  BreakdownGroup.SAMPLE,
  BreakdownGroup.SETTING,
  BreakdownGroup.REGIME,
];

const VERDICT_SHARES = ["exact_share", "near_exact_share", "inexact_share", "unjudged"] as const;

/** A breakdown's flat rows: its rate (with the measure), the spread between samples, and the verdict shares. */
function breakdownRows(
  rows: MemorizationBreakdownRow[],
  measure: MemorizationMeasure,
  emit: Emit,
  shares: boolean,
) {
  for (const row of rows) {
    const scope = { ...row, measure, judge: EFFECTIVE_JUDGE };
    emit("rate", scope, row.rate, {
      numerator: row.memorized,
      denominator: row.n,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
    // The judge's bounds: the unsure verdicts counted one way, then the other.
    if (row.unsureNearExact + row.unsureInexact > 0) {
      emit("judge_low", scope, row.judgeLow, {
        numerator: row.memorized - row.unsureNearExact,
        denominator: row.n,
      });
      emit("judge_high", scope, row.judgeHigh, {
        numerator: row.memorized + row.unsureInexact,
        denominator: row.n,
      });
    }
    if (row.betweenSampleStandardDeviation !== null)
      emit("between_sample_sd", scope, row.betweenSampleStandardDeviation, { denominator: row.samples });
    // The verdict counts do not depend on the measure: written once, with the main measure's rows.
    if (!shares) continue;
    const counts = { ...row, measure: null, judge: EFFECTIVE_JUDGE };
    for (const [statistic, count] of [
      ["exact_share", row.exact],
      ["near_exact_share", row.nearExact],
      ["inexact_share", row.inexact],
    ] as const)
      emit(statistic, counts, row.n > 0 ? count / row.n : null, { numerator: count, denominator: row.n });
    emit("unjudged", counts, row.unjudged);
  }
}

/**
 * The rate's bounds where the judge is unsure of some verdicts ("4.0% - 9.0% (2 near-exact, 3 inexact unsure)"),
 * "sure" where it is unsure of none.
 */
export function judgeBounds(
  row: Pick<MemorizationBreakdownRow, "unsureNearExact" | "unsureInexact" | "judgeLow" | "judgeHigh">,
) {
  if (row.unsureNearExact + row.unsureInexact === 0) return "sure";
  return `${interval(row.judgeLow, row.judgeHigh)} (${row.unsureNearExact} near-exact, ${row.unsureInexact} inexact unsure)`;
}

/** The headline table: each cell's rate with what qualifies it (floor, non-trivial rate, control's rate). */
function breakdownMarkdown(
  rows: MemorizationBreakdownRow[],
  report: ReportTablesRead,
  key: "shots" | "regime",
) {
  const cell = (sampleId: string | null, setting: string | null, shots: number | null | undefined) =>
    `${sampleId}|${setting}|${shots}`;
  const floors = new Map(
    (report.noMemoryFloor ?? []).map((row) => [cell(row.sampleId, row.setting, row.shots), row]),
  );
  const nonTrivial = new Map(
    (report.memorizationNonTrivial ?? []).map((row) => [cell(row.sampleId, row.setting, row.shots), row]),
  );
  const controls = new Map(
    (report.versusControl ?? []).map((row) => [`${row.dataset}|${row.setting}|${row.shots}`, row]),
  );
  const qualified = key === "shots";
  return markdownTable(
    [
      "dataset",
      "sample",
      "setting",
      qualified ? "k" : "regime",
      "n",
      "exact",
      "near-exact",
      "inexact",
      "unjudged",
      "rate",
      "judge's bounds (unsure)",
      "95% CI",
      "interval",
      "sd between samples",
      ...(qualified ? ["no-memory floor", "above floor (95% CI)", "non-trivial rate", "control rate"] : []),
    ],
    rows.map((row) => {
      const floor = floors.get(cell(row.sampleId, row.setting, row.shots));
      const plain = nonTrivial.get(cell(row.sampleId, row.setting, row.shots));
      const control = controls.get(`${row.dataset}|${row.setting}|${row.shots}`);
      return [
        row.dataset,
        sampleLabel(row),
        row.setting,
        qualified ? row.shots : row.regime,
        row.n,
        row.exact,
        row.nearExact,
        row.inexact,
        row.unjudged,
        pct(row.rate),
        judgeBounds(row),
        interval(row.ciLow, row.ciHigh),
        intervalMethod(row.intervalMethod),
        num(row.betweenSampleStandardDeviation),
        ...(qualified
          ? [
              pct(floor?.floorRate),
              floor
                ? `${pct(floor.aboveFloorRate)} (${interval(floor.aboveFloorCiLow, floor.aboveFloorCiHigh)})`
                : "",
              plain ? `${pct(plain.rate)} (${plain.trivialInstances} trivial left out)` : "",
              control ? `${pct(control.controlRate)} (${control.controlDataset})` : "",
            ]
          : []),
      ];
    }),
  );
}

export const memorizationTable = defineTable<"memorization">({
  field: "memorization",
  type: () => [MemorizationBreakdownRow],
  description: "dataset x setting x k, exact or near-exact.",
  compute: (inputs) => inputs.breakdown(BY_CELL, MemorizationMeasure.EXACT_OR_NEAR_EXACT),
  markdown: {
    title: "Memorization (exact or near-exact) by dataset, sample, setting and k",
    body: (rows, report) => breakdownMarkdown(rows, report, "shots"),
  },
  statistics: ["rate", "judge_low", "judge_high", "between_sample_sd", ...VERDICT_SHARES],
  flat: (rows, emit) => breakdownRows(rows, MemorizationMeasure.EXACT_OR_NEAR_EXACT, emit, true),
  formerNames: {
    "memorization.rate.between_sample_sd": "between_sample_sd",
  },
});

export const memorizationExactOnlyTable = defineTable<"memorizationExactOnly">({
  field: "memorizationExactOnly",
  name: "memorization", // the same rate, measure EXACT_ONLY
  type: () => [MemorizationBreakdownRow],
  description: "dataset x setting x k, exact only.",
  compute: (inputs) => inputs.breakdown(BY_CELL, MemorizationMeasure.EXACT_ONLY),
  markdown: {
    title: "Memorization (exact only)",
    body: (rows) =>
      markdownTable(
        ["dataset", "sample", "setting", "k", "n", "exact", "rate", "95% CI"],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.shots,
          row.n,
          row.memorized,
          pct(row.rate),
          interval(row.ciLow, row.ciHigh),
        ]),
      ),
  },
  statistics: ["rate", "judge_low", "judge_high", "between_sample_sd"],
  flat: (rows, emit) => breakdownRows(rows, MemorizationMeasure.EXACT_ONLY, emit, false),
});

export const memorizationByRegimeTable = defineTable<"memorizationByRegime">({
  field: "memorizationByRegime",
  type: () => [MemorizationBreakdownRow],
  description: "dataset x setting x regime, exact or near-exact.",
  compute: (inputs) => inputs.breakdown(BY_REGIME, MemorizationMeasure.EXACT_OR_NEAR_EXACT),
  markdown: {
    title: "Memorization by regime",
    body: (rows, report) => breakdownMarkdown(rows, report, "regime"),
  },
  statistics: ["rate", "judge_low", "judge_high", "between_sample_sd", ...VERDICT_SHARES],
  flat: (rows, emit) => breakdownRows(rows, MemorizationMeasure.EXACT_OR_NEAR_EXACT, emit, true),
  formerNames: {
    "memorization.rate_by_regime": "rate",
    "memorization.rate_by_regime.between_sample_sd": "between_sample_sd",
    "memorization.by_regime.exact_share": "exact_share",
    "memorization.by_regime.near_exact_share": "near_exact_share",
    "memorization.by_regime.inexact_share": "inexact_share",
    "memorization.by_regime.unjudged": "unjudged",
  },
});
