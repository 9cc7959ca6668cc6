import { createHash } from "node:crypto";
import { DataSource, QueryRunner } from "typeorm";
import { BadInputError, ConflictError } from "../../common/errors";
import { Dataset, LabelVerbalizer } from "../dataset.entity";
import { DatasetSource } from "../dataset-source.entity";
import {
  FieldMapping,
  FieldMappingOptions,
  MappedRow,
  mapRecord,
  resolveFieldMapping,
} from "./field-mapping";
import { ImportError } from "./import.errors";
import { ImportFormat, RawRecord, readRecords } from "./import-format";
import { ImportSource } from "./import-source";
import { createInstanceWriter } from "./instance-writer";
import { decodingStream, ImportEncoding } from "./text-decoding";

/** Fields above this size are almost surely a broken file (a missing quote swallowing the rest). */
export const DEFAULT_MAX_FIELD_BYTES = 1_000_000;

async function* limitFieldSize(
  records: AsyncIterable<RawRecord>,
  maxBytes: number,
): AsyncIterable<RawRecord> {
  for await (const record of records) {
    for (const [name, value] of Object.entries(record.fields)) {
      if (typeof value === "string" && value.length > maxBytes / 4 && Buffer.byteLength(value) > maxBytes)
        throw new ImportError(
          record.line,
          `field "${name}" is ${Buffer.byteLength(value)} bytes, over the limit of ${maxBytes} (MEMICL_MAX_FIELD_BYTES)`,
        );
    }
    yield record;
  }
}

export interface ImportOptions extends FieldMappingOptions {
  datasetName: string;
  format: ImportFormat;
  split: string;
  columns?: string[];
  trecLabels?: "coarse" | "fine";
  /** How the file's bytes are text (default UTF-8, strictly). */
  encoding?: ImportEncoding;
  /** Largest field accepted, in bytes of UTF-8. */
  maxFieldBytes?: number;
  /** Words to show for labels in prompts (label -> verbalizer); unnamed labels stand for themselves. */
  verbalizers?: Record<string, string>;
  /**
   * Adding to a dataset that has labels: accept labels it does not have yet. Off by default, so a file of another
   * dataset (RTE's labels into WNLI) is refused at its first row with a label the dataset does not know.
   */
  allowNewLabels?: boolean;
}

export interface ImportProgress {
  bytesRead: number;
  byteLength: number;
  rowsRead: number;
}

export interface ImportResult {
  dataset: Dataset;
  source: DatasetSource;
  /** True when this exact file, read the same way, was imported before: nothing was added. */
  alreadyImported: boolean;
  datasetCreated: boolean;
  rowCount: number;
  labelCounts: Map<string, number>;
  /** Time spent reading and storing rows. */
  seconds: number;
}

const BATCH_SIZE = 5_000;

/** Streams a file into a dataset in one transaction: a bad row rolls back the whole import. */
export class DatasetImportService {
  constructor(private readonly dataSource: DataSource) {}

  async importDataset(
    source: ImportSource,
    options: ImportOptions,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<ImportResult> {
    validateOptions(options);
    const fingerprint = sourceFingerprint(source, options);
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const result = await this.importInTransaction(runner, source, options, fingerprint, onProgress);
      await runner.commitTransaction();
      return result;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  private async importInTransaction(
    runner: QueryRunner,
    source: ImportSource,
    options: ImportOptions,
    fingerprint: string,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<ImportResult> {
    const manager = runner.manager;
    const existing = await manager
      .createQueryBuilder(Dataset, "dataset")
      .setLock("pessimistic_write")
      .where("dataset.name = :name", { name: options.datasetName })
      .getOne();
    if (existing) {
      const seen = await manager.findOneBy(DatasetSource, { datasetId: existing.id, fingerprint });
      if (seen) {
        return {
          dataset: existing,
          source: seen,
          alreadyImported: true,
          datasetCreated: false,
          rowCount: seen.rowCount,
          labelCounts: new Map(),
          seconds: 0,
        };
      }
    }

    const stream = source.open();
    const started = performance.now();
    let bytesRead = 0;
    stream.on("data", (chunk: Buffer) => {
      bytesRead += chunk.length;
    });
    const text = decodingStream(options.encoding ?? "utf8");
    stream.on("error", (error) => text.destroy(error));
    const records = limitFieldSize(
      readRecords(stream.pipe(text), {
        format: options.format,
        columns: options.columns,
        trecLabels: options.trecLabels,
      }),
      options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES,
    )[Symbol.asyncIterator]();

    const first = await records.next();
    if (first.done) throw new ImportError(1, "the file has no rows");
    const mapping = resolveFieldMapping(first.value, options);
    const dataset = existing ?? (await this.createDataset(runner, options, mapping));
    if (dataset.taskKind !== mapping.taskKind) {
      throw new ConflictError(
        `dataset "${dataset.name}" is ${dataset.taskKind} but this file maps to ${mapping.taskKind} (${mapping.textFields.join(", ")})`,
      );
    }
    const sourceRow = await manager.save(
      manager.create(DatasetSource, {
        datasetId: dataset.id,
        split: options.split,
        format: options.format,
        fileName: source.fileName.slice(0, 500),
        fingerprint,
        rowCount: 0,
      }),
    );

    const labelCounts = new Map<string, number>();
    const writer = createInstanceWriter(runner, {
      datasetId: dataset.id,
      sourceId: sourceRow.id,
      split: options.split,
    });
    let batch: MappedRow[] = [];
    let rowCount = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      await writer.write(rows);
      rowCount += rows.length;
      onProgress?.({ bytesRead, byteLength: source.byteLength, rowsRead: rowCount });
    };

    const knownLabels =
      existing && existing.labelVerbalizers.length > 0 && !options.allowNewLabels
        ? new Set(existing.labelVerbalizers.map((entry) => entry.label))
        : null;
    const idLines = new Map<string, number>();
    try {
      for (let next: IteratorResult<RawRecord> = first; !next.done; next = await records.next()) {
        const row = mapRecord(next.value, mapping);
        if (knownLabels && !knownLabels.has(row.label))
          throw new ImportError(
            next.value.line,
            `label "${row.label}" is not one of dataset "${dataset.name}"'s labels (${[...knownLabels].join(", ")}); ` +
              "is this file from another dataset? To add new labels on purpose, import with --allow-new-labels " +
              "(allowNewLabels: true)",
          );
        if (row.externalId !== null) {
          // Ids name rows (GLUE's idx, a file's own): two rows of one file with the same id are a broken file.
          const earlier = idLines.get(row.externalId);
          if (earlier !== undefined)
            throw new ImportError(
              next.value.line,
              `id "${row.externalId}" repeats the id of line ${earlier}`,
            );
          idLines.set(row.externalId, next.value.line);
        }
        labelCounts.set(row.label, (labelCounts.get(row.label) ?? 0) + 1);
        batch.push(row);
        if (batch.length >= BATCH_SIZE) await flush();
      }
      await flush();
      await writer.finish();
    } catch (error) {
      await writer.finish().catch(() => {});
      stream.destroy();
      throw error;
    }

    sourceRow.rowCount = rowCount;
    await manager.update(DatasetSource, { id: sourceRow.id }, { rowCount });
    dataset.labelVerbalizers = mergeLabels(
      dataset.labelVerbalizers,
      labelCounts.keys(),
      options.verbalizers,
      options.format,
    );
    dataset.totalInstanceCount += rowCount;
    await manager.update(
      Dataset,
      { id: dataset.id },
      { labelVerbalizers: dataset.labelVerbalizers, totalInstanceCount: dataset.totalInstanceCount },
    );
    return {
      dataset,
      source: sourceRow,
      alreadyImported: false,
      datasetCreated: !existing,
      rowCount,
      labelCounts,
      seconds: (performance.now() - started) / 1000,
    };
  }

  private async createDataset(
    runner: QueryRunner,
    options: ImportOptions,
    mapping: FieldMapping,
  ): Promise<Dataset> {
    const manager = runner.manager;
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(Dataset)
      .values({
        name: options.datasetName,
        promptName: conventionalName(options.datasetName),
        taskKind: mapping.taskKind,
        textFields: mapping.textFields,
        labelVerbalizers: [],
      })
      .orIgnore()
      .returning("id")
      .execute();
    if (inserted.identifiers.length === 0 || !inserted.identifiers[0]) {
      throw new ConflictError(
        `dataset "${options.datasetName}" was created by another import at the same time; retry`,
      );
    }
    return manager.findOneByOrFail(Dataset, { id: inserted.identifiers[0].id });
  }
}

const CONVENTIONAL_NAMES: Record<string, string> = {
  rte: "RTE",
  wnli: "WNLI",
  trec: "TREC",
  dbpedia: "DBpedia",
  "dbpedia-14": "DBpedia",
  dbpedia_14: "DBpedia",
  mnli: "MNLI",
  qnli: "QNLI",
  sst2: "SST-2",
  "sst-2": "SST-2",
  agnews: "AG News",
  ag_news: "AG News",
};

/** How prompts name a new dataset by default: the study's datasets by their conventional names. */
export function conventionalName(datasetName: string): string | null {
  return CONVENTIONAL_NAMES[datasetName.toLowerCase()] ?? null;
}

/**
 * The words a new label shows in prompts unless told otherwise: for labels that carry their meaning in
 * parentheses after a code (WNLI's `1 (entailment)`), those words; for snake_case labels (RTE's
 * `not_entailment`), the words with spaces; TREC's codes in the TREC label format, in words (`LOC` ->
 * "location"); otherwise the label itself.
 */
export function defaultVerbalizer(label: string, format?: string): string {
  if (format === "trec") {
    const named = trecVerbalizer(label);
    if (named) return named;
  }
  const explained = /^\s*\w+\s*\(([^()]+)\)\s*$/.exec(label)?.[1].trim();
  if (explained) return explained;
  return /^[a-z]+(_[a-z]+)+$/.test(label) ? label.replaceAll("_", " ") : label;
}

/** TREC's coarse classes (Li & Roth, 2002) in words: a model asked to answer "ENTY" or "LOC" cannot guess. */
const TREC_COARSE: Record<string, string> = {
  ABBR: "abbreviation",
  DESC: "description",
  ENTY: "entity",
  HUM: "human",
  LOC: "location",
  NUM: "number",
};

/** TREC's fine classes in words, where the code abbreviates them. */
const TREC_FINE: Record<string, string> = {
  abb: "abbreviation",
  exp: "expansion",
  def: "definition",
  desc: "description",
  cremat: "creative work",
  dismed: "disease or medicine",
  instru: "instrument",
  lang: "language",
  techmeth: "technique or method",
  termeq: "equivalent term",
  veh: "vehicle",
  gr: "group",
  ind: "individual",
  mount: "mountain",
  dist: "distance",
  ord: "order",
  perc: "percentage",
  temp: "temperature",
  volsize: "size",
};

/** `LOC` -> "location", `LOC:city` -> "location: city", `HUM:ind` -> "human: individual"; null for other labels. */
export function trecVerbalizer(label: string): string | null {
  const [coarse, fine] = label.split(":");
  const coarseWords = TREC_COARSE[coarse];
  if (!coarseWords) return null;
  if (fine === undefined) return coarseWords;
  return `${coarseWords}: ${TREC_FINE[fine] ?? fine}`;
}

function mergeLabels(
  current: LabelVerbalizer[],
  seen: Iterable<string>,
  verbalizers: Record<string, string> | undefined,
  format?: string,
): LabelVerbalizer[] {
  const byLabel = new Map(current.map((entry) => [entry.label, entry.verbalizer]));
  for (const label of seen) if (!byLabel.has(label)) byLabel.set(label, defaultVerbalizer(label, format));
  for (const [label, verbalizer] of Object.entries(verbalizers ?? {}))
    if (byLabel.has(label)) byLabel.set(label, verbalizer);
  return [...byLabel.entries()]
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .map(([label, verbalizer]) => ({ label, verbalizer }));
}

/** Same bytes read the same way = same fingerprint. */
export function sourceFingerprint(source: ImportSource, options: ImportOptions): string {
  // Defaults are spelled out, and options a format ignores are left out, so that the same reading gives
  // the same fingerprint whether it came from the CLI (which fills in defaults) or the API (which may not).
  const trec = options.format === "trec";
  const reading = {
    sha256: source.sha256,
    format: options.format,
    split: options.split,
    columns: trec ? null : (options.columns ?? null),
    textFields: trec ? null : (options.textFields ?? "guessed"),
    labelField: trec ? null : (options.labelField ?? "label"),
    idField: trec ? null : (options.idField ?? "guessed"),
    trecLabels: trec ? (options.trecLabels ?? "coarse") : null,
    // Only a non-default encoding is spelled out, so fingerprints of earlier UTF-8 imports stay the same.
    ...(options.encoding && options.encoding !== "utf8" ? { encoding: options.encoding } : {}),
  };
  return createHash("sha256").update(JSON.stringify(reading)).digest("hex");
}

function validateOptions(options: ImportOptions) {
  if (!/^[\w.-]{1,200}$/.test(options.datasetName)) {
    throw new BadInputError("dataset name: 1-200 letters, digits, '_', '.' or '-'", { field: "name" });
  }
  if (!/^[\w-]{1,50}$/.test(options.split))
    throw new BadInputError("split: 1-50 letters, digits, '_' or '-'", { field: "split" });
  if (options.textFields && (options.textFields.length < 1 || options.textFields.length > 2)) {
    throw new BadInputError("text fields: one (classification) or two (NLI)", { field: "textFields" });
  }
}
