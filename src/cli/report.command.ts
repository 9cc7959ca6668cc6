import fs from "node:fs";
import { stringify } from "csv-stringify/sync";
import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { ExportFormat, exportCompletions } from "../report/export.service";
import { StudyReport } from "../report/report.types";
import { openForCommand } from "./open-database";

const pct = (value: number | null | undefined) => (value == null ? "" : `${(value * 100).toFixed(1)}%`);
const num = (value: number | null | undefined, digits = 3) => (value == null ? "" : value.toFixed(digits));
const pValue = (value: number | null | undefined) =>
  value == null ? "" : value < 0.0001 ? value.toExponential(1) : value.toFixed(4);
const interval = (low: number | null | undefined, high: number | null | undefined, format = pct) =>
  low == null || high == null ? "" : `${format(low)} - ${format(high)}`;
const method = (value: string | null | undefined) =>
  value === "CLUSTER_BOOTSTRAP" ? "cluster bootstrap" : value === "WILSON" ? "Wilson" : "";

interface SampleLabelled {
  sampleId: string | null;
  sampleName: string | null;
  sampleSeed: string | null;
  samples?: number;
}

/** "name (seed 42)" for a sample's row; "pooled (2 samples)" for a row over several. */
export function sampleLabel(row: SampleLabelled): string {
  if (row.sampleId === null) return row.samples && row.samples > 1 ? `pooled (${row.samples} samples)` : "";
  return `${row.sampleName ?? row.sampleId.slice(0, 8)} (seed ${row.sampleSeed})`;
}

function table(headers: string[], rows: (string | number | boolean | null)[][]): string {
  const line = (cells: (string | number | boolean | null)[]) =>
    `| ${cells.map((cell) => String(cell ?? "")).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The study's tables as Markdown. */
export function reportMarkdown(report: StudyReport): string {
  const memorization = (rows: StudyReport["memorization"], key: "shots" | "regime") =>
    table(
      [
        "dataset",
        "sample",
        "setting",
        key === "shots" ? "k" : "regime",
        "n",
        "exact",
        "near-exact",
        "inexact",
        "unjudged",
        "rate",
        "95% CI",
        "interval",
        "sd between samples",
      ],
      rows.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        key === "shots" ? row.shots : row.regime,
        row.n,
        row.exact,
        row.nearExact,
        row.inexact,
        row.unjudged,
        pct(row.rate),
        interval(row.ciLow, row.ciHigh),
        method(row.intervalMethod),
        num(row.betweenSampleStandardDeviation),
      ]),
    );
  const paired = (rows: StudyReport["settingComparisons"]) =>
    table(
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
  return [
    `# Study report: ${report.subject?.experimentName ?? report.experimentId}`,
    subjectLines(report),
    "Memorization is the share of judged completions whose effective verdict (a human's, else the automatic judge's) " +
      "is exact or near-exact. Intervals are 95%: Wilson score intervals where each instance counts once, cluster " +
      "bootstrap intervals (instances resampled, 2,000 resamples, fixed seed) where an instance counts several times. " +
      "Rows are per sample; a dataset with several samples also gets a pooled row. See docs/STATISTICS.md.",
    `Multiple comparisons: ${report.multipleComparisons}`,
    "## Memorization (exact or near-exact) by dataset, sample, setting and k",
    memorization(report.memorization, "shots"),
    "## Memorization (exact only)",
    table(
      ["dataset", "sample", "setting", "k", "n", "exact", "rate", "95% CI"],
      report.memorizationExactOnly.map((row) => [
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
    "## Memorization by regime",
    memorization(report.memorizationByRegime, "regime"),
    "## Performance",
    table(
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
      report.performance.map((row) => [
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
        method(row.intervalMethod),
        pct(row.meanAccuracy),
        num(row.accuracyStandardDeviation),
      ]),
    ),
    "## Accuracy on memorized vs non-memorized instances",
    table(
      [
        "dataset",
        "sample",
        "setting",
        "k",
        "memorized (instances)",
        "correct / n",
        "accuracy",
        "not memorized (instances)",
        "correct / n",
        "accuracy",
        "difference",
        "95% CI (Newcombe)",
        "Fisher p",
        "Holm p",
      ],
      report.memorizedVsNotMemorized.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.shots,
        row.memorized.instances,
        `${row.memorized.correct} / ${row.memorized.n}`,
        pct(row.memorized.accuracy),
        row.notMemorized.instances,
        `${row.notMemorized.correct} / ${row.notMemorized.n}`,
        pct(row.notMemorized.accuracy),
        pct(row.difference),
        interval(row.differenceCiLow, row.differenceCiHigh),
        pValue(row.pValue),
        pValue(row.pValueHolm),
      ]),
    ),
    "## Correlation of performance and memorization across k",
    table(
      [
        "dataset",
        "sample",
        "setting",
        "measure",
        "points",
        "Pearson r",
        "95% CI (bootstrap)",
        "p",
        "Holm p",
        "Spearman rho",
        "p",
        "Holm p",
        "Spearman p method",
      ],
      report.correlations.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.measure,
        row.n,
        num(row.pearson),
        interval(row.pearsonCiLow, row.pearsonCiHigh, (value) => num(value)),
        pValue(row.pearsonPValue),
        pValue(row.pearsonPValueHolm),
        num(row.spearman),
        pValue(row.spearmanPValue),
        pValue(row.spearmanPValueHolm),
        row.spearmanPValueMethod ?? "",
      ]),
    ),
    "## Settings compared on the same instances (McNemar)",
    paired(report.settingComparisons),
    "## Zero-shot against k-shot on the same instances (McNemar)",
    paired(report.zeroVsFewShot),
    "## Near-exact matches that become exact as k grows",
    table(
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
      ],
      report.transitionRates.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.fromShots,
        row.toShots,
        row.nearExact,
        row.becameExact,
        pct(row.rate),
        interval(row.ciLow, row.ciHigh),
      ]),
    ),
    "## Contamination verdict (the original rule on a fixed, seeded 10-instance subset: at least one exact or two near-exact)",
    table(
      [
        "dataset",
        "sample",
        "setting",
        "k",
        "subset judged",
        "exact",
        "near-exact",
        "contaminated",
        "whole sample: memorized / judged",
        "rate",
        "95% CI",
      ],
      report.contamination.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.shots,
        row.subsetJudged,
        row.exact,
        row.nearExact,
        row.contaminated ? "yes" : "no",
        `${row.memorizedInstances} / ${row.instances}`,
        pct(row.rate),
        interval(row.ciLow, row.ciHigh),
      ]),
    ),
    "",
  ].join("\n\n");
}

type CsvValue = number | boolean | null;

/**
 * The study's figures in one long CSV (table, dataset, sample_id, sample_seed, setting, k, regime, measure,
 * statistic, value): tidy for notebooks.
 */
export function reportCsv(report: StudyReport): string {
  const rows: (string | number | null)[][] = [
    [
      "table",
      "dataset",
      "sample_id",
      "sample_seed",
      "setting",
      "shots",
      "regime",
      "measure",
      "statistic",
      "value",
    ],
  ];
  const push = (
    tableName: string,
    row: {
      dataset?: string | null;
      sampleId?: string | null;
      sampleSeed?: string | null;
      setting?: string | null;
      shots?: number | null;
      regime?: string | null;
    },
    measure: string | null,
    values: Record<string, CsvValue>,
  ) => {
    for (const [statistic, value] of Object.entries(values)) {
      rows.push([
        tableName,
        row.dataset ?? null,
        row.sampleId ?? null,
        row.sampleSeed ?? null,
        row.setting ?? null,
        row.shots ?? null,
        row.regime ?? null,
        measure,
        statistic,
        value === null ? null : Number(value),
      ]);
    }
  };
  const breakdownValues = (row: StudyReport["memorization"][number]) => ({
    samples: row.samples,
    n: row.n,
    exact: row.exact,
    nearExact: row.nearExact,
    inexact: row.inexact,
    unjudged: row.unjudged,
    memorized: row.memorized,
    rate: row.rate,
    ciLow: row.ciLow,
    ciHigh: row.ciHigh,
    betweenSampleSd: row.betweenSampleStandardDeviation,
  });
  for (const row of report.memorization)
    push("memorization", row, "EXACT_OR_NEAR_EXACT", breakdownValues(row));
  for (const row of report.memorizationExactOnly)
    push("memorization", row, "EXACT_ONLY", breakdownValues(row));
  for (const row of report.memorizationByRegime)
    push("memorization_by_regime", row, "EXACT_OR_NEAR_EXACT", breakdownValues(row));
  for (const row of report.performance)
    push("performance", row, null, {
      samples: row.samples,
      repeats: row.repeats,
      n: row.n,
      correct: row.correct,
      unparseable: row.unparseable,
      failed: row.failed,
      accuracy: row.accuracy,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
      meanAccuracy: row.meanAccuracy,
      sd: row.accuracyStandardDeviation,
      betweenSampleSd: row.betweenSampleStandardDeviation,
    });
  for (const row of report.memorizedVsNotMemorized) {
    push("memorized_vs_not", row, "memorized", {
      instances: row.memorized.instances,
      n: row.memorized.n,
      correct: row.memorized.correct,
      accuracy: row.memorized.accuracy,
    });
    push("memorized_vs_not", row, "not_memorized", {
      instances: row.notMemorized.instances,
      n: row.notMemorized.n,
      correct: row.notMemorized.correct,
      accuracy: row.notMemorized.accuracy,
    });
    push("memorized_vs_not", row, "difference", {
      difference: row.difference,
      ciLow: row.differenceCiLow,
      ciHigh: row.differenceCiHigh,
      fisherP: row.pValue,
      fisherPHolm: row.pValueHolm,
    });
  }
  for (const row of report.correlations)
    push("correlation", row, row.measure, {
      n: row.n,
      pearson: row.pearson,
      pearsonCiLow: row.pearsonCiLow,
      pearsonCiHigh: row.pearsonCiHigh,
      pearsonP: row.pearsonPValue,
      pearsonPHolm: row.pearsonPValueHolm,
      spearman: row.spearman,
      spearmanP: row.spearmanPValue,
      spearmanPHolm: row.spearmanPValueHolm,
    });
  for (const [tableName, list] of [
    ["setting_comparison", report.settingComparisons],
    ["zero_vs_k", report.zeroVsFewShot],
  ] as const)
    for (const row of list)
      push(
        tableName,
        { ...row, setting: row.settingA, shots: row.shotsB },
        `${row.settingA}@${row.shotsA} vs ${row.settingB}@${row.shotsB}`,
        {
          pairs: row.pairs,
          both: row.bothMemorized,
          onlyA: row.onlyA,
          onlyB: row.onlyB,
          neither: row.neither,
          rateA: row.rateA,
          rateB: row.rateB,
          mcnemarP: row.pValue,
          mcnemarPHolm: row.pValueHolm,
        },
      );
  for (const row of report.transitionRates)
    push("transition_rate", { ...row, shots: row.toShots }, `from_k=${row.fromShots}`, {
      nearExact: row.nearExact,
      becameExact: row.becameExact,
      rate: row.rate,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
  for (const row of report.contamination)
    push("contamination", row, null, {
      subsetJudged: row.subsetJudged,
      exact: row.exact,
      nearExact: row.nearExact,
      contaminated: row.contaminated,
      instances: row.instances,
      memorizedInstances: row.memorizedInstances,
      rate: row.rate,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
  return stringify(rows);
}

/** `memicl report EXPERIMENT --format markdown|json|csv` */
export async function runReport(
  config: Config,
  experimentId: string,
  options: { format: string },
): Promise<void> {
  if (!["markdown", "json", "csv"].includes(options.format))
    throw new BadInputError("--format: markdown, json or csv");
  const command = await openForCommand(config, { say: process.stderr });
  try {
    const report = await command.services.report.studyReport(experimentId);
    const text =
      options.format === "json"
        ? `${JSON.stringify(report, null, 2)}\n`
        : options.format === "csv"
          ? reportCsv(report)
          : reportMarkdown(report);
    process.stdout.write(text);
  } finally {
    await command.close();
  }
}

/** `memicl export EXPERIMENT --format csv|jsonl [--output FILE]`: every completion with every judgment, streamed. */
export async function runExport(
  config: Config,
  experimentId: string,
  options: { format: string; output?: string },
): Promise<void> {
  if (options.format !== "csv" && options.format !== "jsonl")
    throw new BadInputError("--format: csv or jsonl");
  const command = await openForCommand(config, { say: process.stderr });
  try {
    const out = options.output ? fs.createWriteStream(options.output) : process.stdout;
    const rows = await exportCompletions(
      command.database.dataSource,
      experimentId,
      options.format as ExportFormat,
      out,
    );
    if (options.output) {
      await new Promise<void>((resolve, reject) =>
        (out as fs.WriteStream).end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      process.stderr.write(`memicl: wrote ${rows} completions to ${options.output}\n`);
    }
  } finally {
    await command.close();
  }
}

/** The report's first lines: which experiment, provider, model (asked and reported), templates and judges. */
function subjectLines(report: StudyReport): string {
  const subject = report.subject;
  if (!subject) return `Experiment ${report.experimentId}.`;
  return [
    `- experiment: ${subject.experimentName} (${report.experimentId})`,
    `- provider and model: ${subject.provider} / ${subject.requestedModel} (reported: ${subject.reportedModels.join(", ") || "none yet"})`,
    `- templates: ${subject.templateVersions.join(", ") || "none"}`,
    `- judges: ${subject.judges.join(", ") || "none"}`,
  ].join("\n");
}
