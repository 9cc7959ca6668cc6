import { DataSource } from "typeorm";
import { decodeCursor, encodeCursor } from "../common/cursor";
import { checkPageSize, Page, toPage } from "../graphql/connection";
import { Completion } from "./completion.entity";
import * as sql from "./completion.sql";

/** Completions as the API reads them: pages of a run's completions, batched. */
export class CompletionService {
  constructor(private readonly dataSource: DataSource) {}

  /** Batches completion pages of many runs: one LATERAL query per distinct (first, after, status). */
  async completionPages(
    keys: readonly { runId: string; first: number; after: string | null; status: string | null }[],
  ): Promise<Page<Completion>[]> {
    const results = new Map<string, Page<Completion>>();
    const group = (key: (typeof keys)[number]) => JSON.stringify([key.first, key.after, key.status]);
    for (const shape of new Set(keys.map(group))) {
      const members = keys.filter((key) => group(key) === shape);
      const { first, after, status } = members[0];
      checkPageSize(first);
      const afterId = after ? String(decodeCursor("Completion", after)[0]) : "0";
      const rows: Record<string, unknown>[] = await this.dataSource.query(sql.completionPages, [
        members.map((key) => key.runId),
        afterId,
        status,
        first + 1,
      ]);
      const completions = rows.map((row) => this.dataSource.manager.create(Completion, rowToCompletion(row)));
      for (const key of members) {
        const own = completions.filter((completion) => completion.runId === key.runId);
        results.set(
          `${key.runId}|${shape}`,
          toPage(own, first, (row) => encodeCursor("Completion", [row.id])),
        );
      }
    }
    return keys.map((key) => results.get(`${key.runId}|${group(key)}`)!);
  }
}

export function rowToCompletion(row: Record<string, unknown>): Partial<Completion> {
  return {
    id: String(row.id),
    runId: row.run_id as string,
    sampledInstanceId: String(row.sampled_instance_id),
    repeat: row.repeat as number,
    status: row.status as Completion["status"],
    promptHash: row.prompt_hash as string | null,
    output: row.output as string | null,
    extractedAnswer: row.extracted_answer as string | null,
    extractionRule: row.extraction_rule as string | null,
    rougeL: row.rouge_l as number | null,
    finishReason: row.finish_reason as string | null,
    promptTokens: row.prompt_tokens as number | null,
    completionTokens: row.completion_tokens as number | null,
    cachedTokens: row.cached_tokens as number | null,
    latencyMs: row.latency_ms as number | null,
    attempts: row.attempts as number,
    error: row.error as string | null,
    reportedModel: row.reported_model as string | null,
    systemFingerprint: row.system_fingerprint as string | null,
    cacheHit: row.cache_hit as boolean,
    parsedLabel: row.parsed_label as string | null,
    correct: row.correct as boolean | null,
    costUsd: row.cost_usd as string | null,
    createdAt: row.created_at as Date,
    completedAt: row.completed_at as Date | null,
  };
}
