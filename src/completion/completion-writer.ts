import { DataSource } from "typeorm";
import * as sql from "./completion.sql";

/** One stored answer, by name (see `COMPLETED_COLUMNS`). */
export interface CompletedRow {
  id: string;
  lease_token: string;
  output: string;
  finish_reason: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cached_tokens: number | null;
  latency_ms: number;
  attempts: number;
  reported_model: string | null;
  system_fingerprint: string | null;
  cache_hit: boolean;
  parsed_label: string | null;
  correct: boolean | null;
  prompt_hash: string;
  cost_usd: number | null;
  cache_key: string | null;
  provider: string;
  model: string;
  response: unknown;
  verdict: string | null;
  judge_version: string;
  details: unknown;
  extracted_answer: string | null;
  extraction_rule: string | null;
  rouge_l: number | null;
  /** LOGPROB: the per-token values, whole (ChatResult.tokenLogprobs). */
  token_logprobs: string | null;
}

interface Waiting {
  runId: string;
  row: CompletedRow;
  resolve(): void;
  reject(error: Error): void;
}

const MAX_BATCH = 200;
/** How long the first answer after a quiet spell waits for others to share its statement. */
const GATHER_MS = 10;

/**
 * Writes answers as they arrive: while one write is in flight, the answers that arrive wait and go together in
 * the next one (one statement, one commit, each run's counters moved once), whatever run they belong to. The first
 * answer after a quiet spell waits GATHER_MS for company (its slot is already free: the wait is off every call's
 * path); under heavy load the batches grow by themselves. Each
 * caller's promise settles when its own answer is committed, so nothing is acknowledged before it is stored. If
 * a batch fails, its answers are written one by one, so that one bad answer fails alone.
 */
export class CompletionWriter {
  private waiting: Waiting[] = [];
  private writing = false;
  private gathering: NodeJS.Timeout | null = null;

  constructor(private readonly dataSource: DataSource) {}

  write(runId: string, row: CompletedRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ runId, row, resolve, reject });
      if (this.writing) return;
      if (this.waiting.length >= MAX_BATCH) {
        if (this.gathering) clearTimeout(this.gathering);
        this.gathering = null;
        void this.drain();
      } else
        this.gathering ??= setTimeout(() => {
          this.gathering = null;
          void this.drain();
        }, GATHER_MS);
    });
  }

  private async drain(): Promise<void> {
    // One write at a time: two in flight could lock the same runs and counters in different orders.
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        // Runs in id order (the statement locks them in that order too).
        batch.sort((a, b) =>
          a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : Number(a.row.id) - Number(b.row.id),
        );
        await this.writeBatch(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeBatch(batch: Waiting[]): Promise<void> {
    const store = (entries: Waiting[]) =>
      this.dataSource.query(sql.completeCompletions, [JSON.stringify(entries.map((entry) => entry.row))]);
    if (batch.length > 1) {
      try {
        await store(batch);
        for (const entry of batch) entry.resolve();
        return;
      } catch {
        // One at a time below: each answer gets its own outcome.
      }
    }
    for (const entry of batch) {
      try {
        await store([entry]);
        entry.resolve();
      } catch (error) {
        entry.reject(error as Error);
      }
    }
  }
}
