import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { comparisonCsv } from "../report/report-csv";
import { comparisonMarkdown } from "../report/report-markdown";
import { openReadOnly } from "./open-database";

/** `memicl compare A B [...] --format markdown|json|csv`: experiments (models) side by side. */
export async function runCompare(
  config: Config,
  experimentIds: string[],
  options: { format: string },
): Promise<void> {
  if (!["markdown", "json", "csv"].includes(options.format))
    throw new BadInputError("--format: markdown, json or csv");
  const command = await openReadOnly(config, { say: process.stderr });
  try {
    const comparison = await command.services.report.compare(experimentIds);
    // Said on stderr too, so that a JSON or CSV export does not hide them.
    for (const warning of comparison.warnings) process.stderr.write(`memicl: warning: ${warning}\n`);
    process.stdout.write(
      options.format === "json"
        ? `${JSON.stringify(comparison, null, 2)}\n`
        : options.format === "csv"
          ? comparisonCsv(comparison)
          : comparisonMarkdown(comparison),
    );
  } finally {
    await command.close();
  }
}
