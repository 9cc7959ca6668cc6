import fs from "node:fs";
import { stringify } from "csv-stringify/sync";
import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { ExportFormat, exportCompletions } from "../metric/export.service";
import { StudyReport } from "../metric/result.types";
import { openForCommand } from "./open-database";

const pct = (value: number | null | undefined) => (value == null ? "" : `${(value * 100).toFixed(1)}%`);
const num = (value: number | null | undefined, digits = 3) => (value == null ? "" : value.toFixed(digits));

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
        "setting",
        key === "shots" ? "k" : "regime",
        "n",
        "exact",
        "near-exact",
        "inexact",
        "unjudged",
        "rate",
        "95% CI",
      ],
      rows.map((row) => [
        row.dataset,
        row.setting,
        key === "shots" ? row.shots : row.regime,
        row.n,
        row.exact,
        row.nearExact,
        row.inexact,
        row.unjudged,
        pct(row.rate),
        `${pct(row.ciLow)} - ${pct(row.ciHigh)}`,
      ]),
    );
  return [
    `# Study report for experiment ${report.experimentId}`,
    "Memorization is the share of judged completions whose effective verdict (a human's, else the automatic judge's) is exact or near-exact; intervals are 95% Wilson score intervals.",
    "## Memorization (exact or near-exact) by dataset, setting and k",
    memorization(report.memorization, "shots"),
    "## Memorization (exact only)",
    table(
      ["dataset", "setting", "k", "n", "exact", "rate"],
      report.memorizationExactOnly.map((row) => [
        row.dataset,
        row.setting,
        row.shots,
        row.n,
        row.memorized,
        pct(row.rate),
      ]),
    ),
    "## Memorization by regime",
    memorization(report.memorizationByRegime, "regime"),
    "## Performance (accuracy over repeats)",
    table(
      ["dataset", "k", "repeats", "n", "correct", "unparseable", "mean accuracy", "sd"],
      report.performance.map((row) => [
        row.dataset,
        row.shots,
        row.repeats,
        row.n,
        row.correct,
        row.unparseable,
        pct(row.meanAccuracy),
        num(row.accuracyStandardDeviation),
      ]),
    ),
    "## Accuracy on memorized vs non-memorized instances",
    table(
      [
        "dataset",
        "setting",
        "k",
        "memorized (instances)",
        "accuracy",
        "not memorized (instances)",
        "accuracy",
      ],
      report.memorizedVsNotMemorized.map((row) => [
        row.dataset,
        row.setting,
        row.shots,
        row.memorized.instances,
        pct(row.memorized.accuracy),
        row.notMemorized.instances,
        pct(row.notMemorized.accuracy),
      ]),
    ),
    "## Correlation of performance and memorization across k",
    table(
      ["dataset", "setting", "measure", "points", "Pearson r", "p", "Spearman rho"],
      report.correlations.map((row) => [
        row.dataset,
        row.setting,
        row.measure,
        row.n,
        num(row.pearson),
        num(row.pearsonPValue),
        num(row.spearman),
      ]),
    ),
    "## Near-exact matches that become exact as k grows",
    table(
      ["dataset", "setting", "from k", "to k", "sampled instance"],
      report.nearExactToExact.map((row) => [
        row.dataset,
        row.setting,
        row.fromShots,
        row.toShots,
        row.sampledInstanceId,
      ]),
    ),
    "## Contamination verdict (at least one exact or two near-exact matches)",
    table(
      ["dataset", "setting", "k", "exact", "near-exact", "contaminated"],
      report.contamination.map((row) => [
        row.dataset,
        row.setting,
        row.shots,
        row.exact,
        row.nearExact,
        row.contaminated ? "yes" : "no",
      ]),
    ),
    "",
  ].join("\n\n");
}

/** The study's figures in one long CSV (table, dataset, setting, k, regime, measure, statistic, value): tidy for notebooks. */
export function reportCsv(report: StudyReport): string {
  const rows: (string | number | null)[][] = [
    ["table", "dataset", "setting", "shots", "regime", "measure", "statistic", "value"],
  ];
  const push = (
    tableName: string,
    row: { dataset?: string | null; setting?: string | null; shots?: number | null; regime?: string | null },
    measure: string | null,
    values: Record<string, number | boolean | null>,
  ) => {
    for (const [statistic, value] of Object.entries(values)) {
      rows.push([
        tableName,
        row.dataset ?? null,
        row.setting ?? null,
        row.shots ?? null,
        row.regime ?? null,
        measure,
        statistic,
        value === null ? null : Number(value),
      ]);
    }
  };
  for (const row of report.memorization)
    push("memorization", row, "EXACT_OR_NEAR_EXACT", {
      n: row.n,
      exact: row.exact,
      nearExact: row.nearExact,
      inexact: row.inexact,
      unjudged: row.unjudged,
      rate: row.rate,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
  for (const row of report.memorizationExactOnly)
    push("memorization", row, "EXACT_ONLY", {
      n: row.n,
      memorized: row.memorized,
      rate: row.rate,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
  for (const row of report.memorizationByRegime)
    push("memorization_by_regime", row, "EXACT_OR_NEAR_EXACT", {
      n: row.n,
      memorized: row.memorized,
      rate: row.rate,
    });
  for (const row of report.performance)
    push("performance", row, null, {
      repeats: row.repeats,
      n: row.n,
      correct: row.correct,
      unparseable: row.unparseable,
      meanAccuracy: row.meanAccuracy,
      sd: row.accuracyStandardDeviation,
    });
  for (const row of report.memorizedVsNotMemorized) {
    push("memorized_vs_not", row, "memorized", {
      instances: row.memorized.instances,
      n: row.memorized.n,
      accuracy: row.memorized.accuracy,
    });
    push("memorized_vs_not", row, "not_memorized", {
      instances: row.notMemorized.instances,
      n: row.notMemorized.n,
      accuracy: row.notMemorized.accuracy,
    });
  }
  for (const row of report.correlations)
    push("correlation", row, row.measure, {
      n: row.n,
      pearson: row.pearson,
      pearsonP: row.pearsonPValue,
      spearman: row.spearman,
      spearmanP: row.spearmanPValue,
    });
  for (const row of report.contamination)
    push("contamination", row, null, {
      exact: row.exact,
      nearExact: row.nearExact,
      contaminated: row.contaminated,
    });
  for (const row of report.nearExactToExact)
    rows.push([
      "near_exact_to_exact",
      row.dataset,
      row.setting,
      row.fromShots,
      null,
      null,
      `to_k=${row.toShots}`,
      Number(row.sampledInstanceId),
    ]);
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
  const command = await openForCommand(config);
  try {
    const report = await command.services.results.studyReport(experimentId);
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
  const command = await openForCommand(config);
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
