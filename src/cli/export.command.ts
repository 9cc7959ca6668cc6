import fs from "node:fs";
import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { ExportFormat, exportCompletions } from "../report/export.service";
import { openReadOnly } from "./open-database";

/** `memicl export EXPERIMENT --format csv|jsonl [--output FILE]`: every completion with every judgment, streamed. */
export async function runExport(
  config: Config,
  experimentId: string,
  options: { format: string; output?: string },
): Promise<void> {
  if (options.format !== "csv" && options.format !== "jsonl")
    throw new BadInputError("--format: csv or jsonl");
  const command = await openReadOnly(config, { say: process.stderr });
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
