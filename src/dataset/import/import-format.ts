import path from "node:path";
import readline from "node:readline";
import { Readable } from "node:stream";
import { parse } from "csv-parse";
import { ImportError } from "./import.errors";

export const IMPORT_FORMATS = ["csv", "tsv", "jsonl", "trec"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** A record as the file holds it: field name -> raw value, and the line it was read from. */
export interface RawRecord {
  line: number;
  fields: Record<string, unknown>;
}

export interface ReadOptions {
  format: ImportFormat;
  /** Column names for a CSV/TSV without a header row. */
  columns?: string[];
  /** TREC: label each question with its coarse class (`DESC`) or its fine one (`DESC:manner`). */
  trecLabels?: "coarse" | "fine";
}

const EXTENSIONS: Record<string, ImportFormat> = {
  ".csv": "csv",
  ".tsv": "tsv",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
  ".label": "trec",
};

/** The format a file name implies, or null when its extension says nothing. */
export function formatFromFileName(fileName: string): ImportFormat | null {
  return EXTENSIONS[path.extname(fileName).toLowerCase()] ?? null;
}

/** Reads records one at a time from a byte stream; memory does not grow with the file. */
export function readRecords(input: Readable, options: ReadOptions): AsyncIterable<RawRecord> {
  switch (options.format) {
    case "csv":
      return readDelimited(input, ",", true, options.columns);
    case "tsv":
      // GLUE TSV: quotes are literal characters, never field delimiters.
      return readDelimited(input, "\t", false, options.columns);
    case "jsonl":
      return readJsonLines(input);
    case "trec":
      return readTrec(input, options.trecLabels ?? "coarse");
  }
}

async function* readDelimited(
  input: Readable,
  delimiter: string,
  quoted: boolean,
  columns: string[] | undefined,
): AsyncIterable<RawRecord> {
  const parser = input.pipe(
    parse({
      delimiter,
      quote: quoted ? '"' : false,
      columns: columns ?? ((header: string[]) => header.map((name) => name.trim())),
      bom: true,
      skip_empty_lines: true,
      info: true,
    }),
  );
  input.on("error", (error) => parser.destroy(error));
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      yield { line: info.lines, fields: record };
    }
  } catch (error) {
    const csvError = error as Error & { code?: string; lines?: number };
    if (csvError.code?.startsWith("CSV_") && csvError.lines !== undefined) {
      throw new ImportError(csvError.lines, describeCsvError(csvError));
    }
    throw error;
  }
}

function describeCsvError(error: Error & { code?: string }): string {
  if (
    error.code === "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH" ||
    error.code === "CSV_RECORD_INCONSISTENT_COLUMNS"
  ) {
    return `wrong number of columns (${error.message.replace(/^Invalid Record Length: /, "")})`;
  }
  return error.message;
}

async function* readLines(input: Readable): AsyncIterable<{ line: number; text: string }> {
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    // A byte-order mark on the first line is not part of the data.
    yield { line, text: line === 1 ? text.replace(/^\uFEFF/, "") : text };
  }
}

async function* readJsonLines(input: Readable): AsyncIterable<RawRecord> {
  for await (const { line, text } of readLines(input)) {
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ImportError(line, `invalid JSON (${(error as Error).message})`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new ImportError(line, "each line must be a JSON object");
    }
    yield { line, fields: value as Record<string, unknown> };
  }
}

const TREC_LINE = /^([A-Z]+):(\S+)\s+(.*)$/;

async function* readTrec(input: Readable, labels: "coarse" | "fine"): AsyncIterable<RawRecord> {
  for await (const { line, text } of readLines(input)) {
    if (text.trim() === "") continue;
    const match = TREC_LINE.exec(text.trim());
    if (!match) throw new ImportError(line, "expected `COARSE:fine question text`");
    const [, coarse, fine, question] = match;
    yield { line, fields: { label: labels === "coarse" ? coarse : `${coarse}:${fine}`, question } };
  }
}
