import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { reportCsv } from "../report/report-csv";
import { reportMarkdown } from "../report/report-markdown";
import { openReadOnly } from "./open-database";

/** `memicl report EXPERIMENT --format markdown|json|csv` */
export async function runReport(
  config: Config,
  experimentId: string,
  options: { format: string },
): Promise<void> {
  if (!["markdown", "json", "csv"].includes(options.format))
    throw new BadInputError("--format: markdown, json or csv");
  const command = await openReadOnly(config, { say: process.stderr });
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
