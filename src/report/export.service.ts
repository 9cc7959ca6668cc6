import { once } from "node:events";
import { Writable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import { DataSource } from "typeorm";
import { NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import * as sql from "./report.sql";

export type ExportFormat = "csv" | "jsonl";

/**
 * The columns of a completions export, CSV and JSONL alike, in order: every row says which experiment, sample,
 * provider, model and template it came from, so exports of several experiments concatenate without joins; the
 * judgments come flattened (the effective verdict, who gave it, the latest verdict of each judge kind) and nested
 * (`judgments`, every judgment with its details, as JSON in CSV).
 */
export const EXPORT_COLUMNS = [
  "completion_id",
  "run_id",
  "experiment_id",
  "experiment_name",
  "sample_id",
  "sample_seed",
  "provider",
  "requested_model",
  "template_key",
  "template_version",
  "temperature",
  "max_output_tokens",
  "kind",
  "setting",
  "shots",
  "dataset",
  "sampled_instance_id",
  "instance_id",
  "position",
  "repeat",
  "status",
  "label",
  "initial_segment",
  "reference",
  "output",
  "extracted_answer",
  "extraction_rule",
  "parsed_label",
  "correct",
  "effective_verdict",
  "effective_judge_kind",
  "effective_judge_name",
  "heuristic_verdict",
  "llm_verdict",
  "human_verdict",
  "judgments",
  "prompt_hash",
  "prompt_tokens",
  "completion_tokens",
  "cached_tokens",
  "latency_ms",
  "attempts",
  "error",
  "reported_model",
  "cache_hit",
  "cost_usd",
] as const;

const PAGE = 2_000;

/**
 * Streams an experiment's completions with every judgment, page by page (keyset on id), honouring the
 * destination's backpressure: memory stays flat however many rows there are. Returns the rows written.
 */
export async function exportCompletions(
  dataSource: DataSource,
  experimentId: string,
  format: ExportFormat,
  out: Writable,
): Promise<number> {
  const exists = isUuid(experimentId)
    ? await dataSource.query("SELECT 1 FROM experiment WHERE id = $1", [experimentId])
    : [];
  if (exists.length === 0) throw new NotFoundError("Experiment", experimentId);
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, "drain");
  };
  if (format === "csv") await write(stringify([EXPORT_COLUMNS as unknown as string[]]));
  let rows = 0;
  for (let after = "0"; ; ) {
    const page: Record<string, unknown>[] = await dataSource.query(sql.exportPage, [
      experimentId,
      after,
      PAGE,
    ]);
    if (page.length === 0) break;
    let chunk = "";
    for (const row of page) {
      if (format === "jsonl") {
        chunk += `${JSON.stringify(row)}\n`;
      } else {
        chunk += stringify(
          [
            EXPORT_COLUMNS.map((column) =>
              column === "judgments" ? JSON.stringify(row[column]) : row[column],
            ),
          ],
          {
            cast: { boolean: (value) => (value ? "true" : "false") },
          },
        );
      }
    }
    await write(chunk);
    rows += page.length;
    after = String(page[page.length - 1].completion_id);
    if (page.length < PAGE) break;
  }
  return rows;
}
