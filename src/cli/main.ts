import { Command, InvalidArgumentError } from "commander";
import { DomainError } from "../common/errors";
import { ConfigError, loadConfig } from "../config/config";
import { ImportError } from "../dataset/import/import.errors";
import { IMPORT_FORMATS } from "../dataset/import/import-format";
import { DataFolderInUseError } from "../db/embedded";
import { runImport } from "./import.command";
import { runMigrate } from "./migrate.command";
import { runServe } from "./serve.command";

const list = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export function buildProgram(): Command {
  const program = new Command("memicl")
    .description("Measure memorization in in-context learning")
    .showHelpAfterError();

  program
    .command("serve")
    .description("start the GraphQL server (embedded database unless DATABASE_URL is set)")
    .action(() => runServe(loadConfig()));

  program
    .command("migrate")
    .description("bring the database schema up to date and list the applied migrations")
    .action(() => runMigrate(loadConfig()));

  program
    .command("import")
    .description("import a dataset file (CSV, GLUE TSV, JSONL or TREC labels), streamed, in one transaction")
    .argument("<file>", "the file to import")
    .requiredOption("--name <name>", "dataset to create, or to add this file to")
    .option(
      "--format <format>",
      `${IMPORT_FORMATS.join("|")} (default: from the file extension)`,
      (value) => {
        if (!(IMPORT_FORMATS as readonly string[]).includes(value))
          throw new InvalidArgumentError(`one of ${IMPORT_FORMATS.join(", ")}`);
        return value;
      },
    )
    .option("--split <split>", "the split these rows belong to", "train")
    .option("--text-fields <fields>", "one text field (classification) or two (NLI), comma-separated", list)
    .option("--label-field <field>", "the field holding the label", "label")
    .option(
      "--id-field <field>",
      "the field holding the row's own id (default: idx, id, index or guid when present)",
    )
    .option("--columns <names>", "column names of a CSV/TSV without a header row, comma-separated", list)
    .option("--trec-labels <level>", "TREC labels: coarse or fine", (value) => {
      if (value !== "coarse" && value !== "fine") throw new InvalidArgumentError("coarse or fine");
      return value;
    })
    .option(
      "--verbalizers <file>",
      "label verbalizers, one `label: words` per line (e.g. DBpedia's classes.txt)",
    )
    .action((file, options) => runImport(loadConfig(), file, options));

  return program;
}

/** Runs the CLI; known failures print one clear line and exit 1. */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof DomainError ||
      error instanceof ImportError ||
      error instanceof DataFolderInUseError
    ) {
      process.stderr.write(`memicl: ${error.message}\n`);
    } else {
      process.stderr.write(`memicl: unexpected error: ${(error as Error).stack ?? error}\n`);
    }
    process.exitCode = 1;
  }
}
