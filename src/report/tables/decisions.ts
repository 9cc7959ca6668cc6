import { appendTo } from "../../common/collections";
import { REGIME_ORDER, Regime } from "../../study/regime";
import { GUIDED_GENERAL_ALPHA } from "../analyses";
import { methodAgreement, studyDecisions } from "../analyses/decisions";
import { DecisionRow } from "../rows/decisions";
import { contaminationSummaryTable } from "./contamination-summary";
import { defineTable, interval, markdownTable, pct, type ReportTablesRead, sampleLabel } from "./table";

export { DecisionRow };

declare module "./table" {
  interface ReportTables {
    decisions: DecisionRow[];
  }
}

export const decisionsTable = defineTable<"decisions">({
  field: "decisions",
  type: () => [DecisionRow],
  description:
    "Each sample's decision per method, first: the verdict, its meaning, its error rate, minimum detectable " +
    "rate and floor, and the headline rate with its bounds.",
  compute: async (inputs) =>
    studyDecisions(await inputs.table(contaminationSummaryTable), {
      guidedGeneralAlpha: GUIDED_GENERAL_ALPHA,
    }),
  markdown: {
    title: "Decision",
    body: (rows, report) =>
      (rows.length === 0
        ? "No method's results yet: no decision."
        : markdownTable(
            [
              "dataset",
              "sample",
              "method",
              "decision",
              "what it means",
              "false positives without memory",
              "minimum detectable rate",
              "no-memory floor",
              "headline rate (95%)",
            ],
            rows.map((row) => [
              row.split ? `${row.dataset} (${row.split})` : row.dataset,
              sampleLabel(row),
              row.methodName,
              `**${row.decision}**`,
              row.note ? `${row.meaning} ${row.note}` : row.meaning,
              row.errorRate === null ? row.errorRateBasis : `${pct(row.errorRate)} (${row.errorRateBasis})`,
              pct(row.minimumDetectableRate),
              pct(row.floorRate),
              row.rate === null && row.rateLow === null
                ? ""
                : `${pct(row.rate)} ${row.rateLow !== null ? `(${interval(row.rateLow, row.rateHigh)})` : ""}; ${row.rateLabel}`.trim(),
            ]),
          ) + agreement(rows)) + glance(report),
  },
  statistics: [],
});

/** Which methods agree, sample by sample: where the methods that decide point the same way, and where not. */
function agreement(rows: readonly DecisionRow[]): string {
  const lines = methodAgreement(rows).filter((line) => line.methods > 1);
  return lines.length === 0
    ? ""
    : `\n\nWhich methods agree:\n\n${lines.map((line) => `- ${line.sentence}`).join("\n")}`;
}

/** One compact table of the study's figures: memorization by dataset, sample and setting, regime by regime. */
function glance(report: ReportTablesRead): string {
  const rows = report.memorizationByRegime;
  if (!rows?.length) return "";
  const regimes = REGIME_ORDER.filter((regime) => rows.some((row) => row.regime === regime));
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.dataset}\u0000${row.sampleId}\u0000${row.setting}`;
    appendTo(groups, key, row);
  }
  const label: Record<Regime, string> = {
    [Regime.ZERO_SHOT]: "zero-shot",
    [Regime.FEW_SHOT]: "few-shot",
    [Regime.MANY_SHOT]: "many-shot",
  };
  return (
    "\n\n### The study's figures at a glance (memorization, exact or near-exact; per k in the sections below)\n\n" +
    "Each rate with, where the judge is unsure of some verdicts, its bounds by the judge (unsure near-exact counted " +
    "out, unsure inexact counted in), then its 95% interval.\n\n" +
    markdownTable(
      ["dataset", "sample", "setting", ...regimes.map((regime) => label[regime])],
      [...groups.values()].map((group) => [
        group[0].dataset,
        sampleLabel(group[0]),
        group[0].setting,
        ...regimes.map((regime) => {
          const row = group.find((candidate) => candidate.regime === regime);
          if (!row) return "";
          // Where the judge is unsure of some verdicts, the rate's bounds by the judge come first.
          const bounds =
            row.unsureNearExact + row.unsureInexact > 0
              ? `judge ${interval(row.judgeLow, row.judgeHigh)}; `
              : "";
          return `${pct(row.rate)} (${bounds}${interval(row.ciLow, row.ciHigh)}; n ${row.n})`;
        }),
      ]),
    )
  );
}
