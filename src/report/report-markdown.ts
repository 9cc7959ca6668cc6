import { ExperimentComparison } from "./report.types";
import type { StudyReport } from "./study-report";
import { REPORT_TABLES } from "./tables";
import { markdownTable, pct, pValue } from "./tables/table";

/**
 * The study's tables as Markdown: the subject, the decision (each sample x method, then the figures at a glance),
 * how to read the numbers, then every other table's section in the report's order.
 */
export function reportMarkdown(report: StudyReport): string {
  // A report read through GraphQL holds the fields its query asked for: a table not asked for is left out.
  const section = (table: (typeof REPORT_TABLES)[number]) =>
    table.markdown && report[table.field] !== undefined
      ? [`## ${table.markdown.title}`, table.markdown.body(report[table.field], report)]
      : [];
  const first = REPORT_TABLES.filter((table) => table.field === "decisions");
  const rest = REPORT_TABLES.filter((table) => table.field !== "decisions");
  return [
    `# Study report: ${report.subject?.experimentName ?? report.experimentId}`,
    subjectLines(report),
    ...first.flatMap(section),
    "## How to read the numbers",
    "Memorization is the share of judged completions whose effective verdict (a human's, else the automatic judge's) " +
      "is exact or near-exact. Intervals are 95%: Wilson score intervals where each instance counts once, cluster " +
      "bootstrap intervals (instances resampled, 2,000 resamples, fixed seed) where an instance counts several times. " +
      "Rows are per sample; a dataset with several samples also gets a pooled row. See docs/STATISTICS.md.",
    `Multiple comparisons: ${report.multipleComparisons}`,
    ...rest.flatMap(section),
    "",
  ].join("\n\n");
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

/** A comparison as Markdown: which experiments (models), then each pair's cells, paired, with Holm's p. */
export function comparisonMarkdown(comparison: ExperimentComparison): string {
  const name = new Map(
    comparison.experiments.map((e) => [
      e.experimentId,
      `${e.subject.experimentName} (${e.subject.provider}/${e.subject.requestedModel})`,
    ]),
  );
  return [
    "# Experiments compared",
    comparison.experiments
      .map(
        (e) =>
          `- ${e.experimentId}: ${e.subject.experimentName}, ${e.subject.provider} / ${e.subject.requestedModel} (reported: ${e.subject.reportedModels.join(", ") || "none yet"})`,
      )
      .join("\n"),
    `Datasets every experiment ran: ${comparison.datasets.join(", ") || "none"}.`,
    ...comparison.warnings.map((warning) => `**Warning:** ${warning}`),
    "## Cell by cell, on the instances both ran (McNemar)",
    markdownTable(
      [
        "A",
        "B",
        "dataset",
        "kind",
        "setting",
        "k",
        "measure",
        "pairs",
        "rate A",
        "rate B",
        "A - B",
        "p",
        "p (Holm)",
      ],
      comparison.rows.map((row) => [
        name.get(row.experimentA) ?? row.experimentA,
        name.get(row.experimentB) ?? row.experimentB,
        row.dataset,
        row.kind,
        row.setting ?? "",
        row.shots,
        row.measure ?? "",
        row.pairs,
        pct(row.rateA),
        pct(row.rateB),
        pct(row.difference),
        pValue(row.pValue),
        pValue(row.pValueHolm),
      ]),
    ),
    `Multiple comparisons: ${comparison.multipleComparisons}`,
    "",
  ].join("\n\n");
}
