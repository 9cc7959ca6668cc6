import fs from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";
import { SingleBar } from "cli-progress";
import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { formatFromFileName, ImportFormat } from "../dataset/import/import-format";
import { fileSource } from "../dataset/import/import-source";
import { ImportEncoding } from "../dataset/import/text-decoding";
import { parseVerbalizerFile } from "../dataset/import/verbalizer-file";
import { openForCommand } from "./open-database";
import { findDataset } from "./sample.command";

export interface ImportCommandOptions {
  name: string;
  format?: ImportFormat;
  split: string;
  textFields?: string[];
  labelField: string;
  idField?: string;
  columns?: string[];
  trecLabels?: "coarse" | "fine";
  encoding?: ImportEncoding;
  verbalizers?: string;
  allowNewLabels?: boolean;
  /** Mark the dataset as the control of this one (name or id): data the examined model cannot have seen. */
  controlOf?: string;
}

const ROWS_BETWEEN_COLLECTIONS = 50_000;
let collectGarbage: (() => void) | undefined;
let lastCollectionAt = 0;

/**
 * V8 grows its old generation lazily: left alone, a 200,000-row import ends with ~100 MB of dead batches on the
 * heap although it needs a few MB at a time. A full collection every 50,000 rows (a few ms each) keeps the
 * importing process's memory flat. Only this command does it: the server's heap is left to V8.
 */
function compactHeap(rowsRead: number): void {
  if (rowsRead - lastCollectionAt < ROWS_BETWEEN_COLLECTIONS) return;
  lastCollectionAt = rowsRead;
  if (!collectGarbage) {
    v8.setFlagsFromString("--expose-gc");
    collectGarbage = vm.runInNewContext("gc") as () => void;
  }
  collectGarbage();
}

export async function runImport(config: Config, file: string, options: ImportCommandOptions): Promise<void> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new BadInputError(`no such file: ${file}`);
  const format = options.format ?? formatFromFileName(file);
  if (!format) throw new BadInputError(`cannot tell the format of ${file} from its extension; pass --format`);
  const verbalizers = options.verbalizers
    ? parseVerbalizerFile(fs.readFileSync(options.verbalizers, "utf8"))
    : undefined;

  const source = await fileSource(file);
  const command = await openForCommand(config);
  // The control's target is looked up first: a wrong name is refused before anything is imported.
  const target = options.controlOf
    ? await findDataset(command.database.dataSource.manager, options.controlOf).catch(async (error) => {
        await command.close();
        throw error;
      })
    : null;
  const bar = process.stderr.isTTY
    ? new SingleBar({
        format: "importing [{bar}] {percentage}% | {rows} rows | {eta_formatted} left",
        stream: process.stderr,
      })
    : null;
  bar?.start(source.byteLength, 0, { rows: 0 });
  try {
    const result = await command.services.datasetImport.importDataset(
      source,
      {
        datasetName: options.name,
        format,
        split: options.split,
        textFields: options.textFields,
        labelField: options.labelField,
        idField: options.idField,
        columns: options.columns,
        trecLabels: options.trecLabels,
        allowNewLabels: options.allowNewLabels,
        encoding: options.encoding,
        maxFieldBytes: config.maxFieldBytes,
        verbalizers,
      },
      (progress) => {
        bar?.update(progress.bytesRead, { rows: progress.rowsRead });
        compactHeap(progress.rowsRead);
      },
    );
    bar?.stop();
    const out = process.stdout;
    if (result.alreadyImported) {
      out.write(
        `already imported: ${source.fileName} is in dataset "${result.dataset.name}" (${result.rowCount} rows, split ${result.source.split}); nothing changed\n`,
      );
    } else {
      out.write(
        `imported ${result.rowCount} rows from ${source.fileName} into ${result.datasetCreated ? "new " : ""}dataset "${result.dataset.name}" (split ${options.split}, ${result.dataset.taskKind})\n`,
      );
      const rate = Math.round(result.rowCount / Math.max(result.seconds, 1e-3));
      out.write(`took ${result.seconds.toFixed(1)} s (${rate} rows/s)\n`);
      const labels = [...result.labelCounts.entries()].sort(([a], [b]) =>
        a.localeCompare(b, "en", { numeric: true }),
      );
      out.write(
        `labels (${labels.length}): ${labels.map(([label, count]) => `${label}=${count}`).join(", ")}\n`,
      );
    }
    out.write(`dataset id: ${result.dataset.id}\n`);
    if (target) {
      try {
        await command.services.datasets.update(result.dataset.id, { controlOf: target.id });
      } catch (error) {
        throw new BadInputError(
          `the rows are imported, but "${result.dataset.name}" could not be marked the control of "${target.name}": ` +
            `${(error as Error).message}`,
        );
      }
      out.write(
        `control of: "${target.name}" (its samples are tested against this dataset's; it must hold data the ` +
          "examined model cannot have seen)\n",
      );
    }
  } finally {
    bar?.stop();
    await command.close();
  }
}
