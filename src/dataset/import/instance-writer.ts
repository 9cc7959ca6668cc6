import { QueryRunner } from "typeorm";
import { MappedRow } from "./field-mapping";

export interface InstanceWriter {
  /** Sends a batch; resolves once the previous batch is stored, so parsing and inserting overlap. */
  write(rows: MappedRow[]): Promise<void>;
  /** Resolves when every batch is stored (still inside the caller's transaction). */
  finish(): Promise<void>;
}

/**
 * Batched `INSERT ... SELECT FROM unnest(...)`, one array parameter per column, with one batch in
 * flight while the next is parsed. (COPY measured no faster here: the server is the bottleneck either way;
 * see docs/BENCHMARKS.md.)
 */
export function createInstanceWriter(
  runner: QueryRunner,
  target: { datasetId: string; sourceId: string; split: string },
): InstanceWriter {
  let inFlight: Promise<unknown> = Promise.resolve();
  return {
    async write(rows) {
      await inFlight;
      inFlight = runner.query(
        `INSERT INTO instance (dataset_id, source_id, split, line, external_id, text, second_text, label)
         SELECT $1, $2, $3, line, external_id, text, second_text, label
         FROM unnest($4::int[], $5::varchar[], $6::text[], $7::text[], $8::varchar[])
           AS row(line, external_id, text, second_text, label)`,
        [
          target.datasetId,
          target.sourceId,
          target.split,
          rows.map((row) => row.line),
          rows.map((row) => row.externalId),
          rows.map((row) => row.text),
          rows.map((row) => row.secondText),
          rows.map((row) => row.label),
        ],
      );
      inFlight.catch(() => {}); // observed by the next write or by finish()
    },
    async finish() {
      await inFlight;
    },
  };
}
