// Batch execution: a run's calls through the provider's Batch API. The life of a batch:
//   formed     a run with items to send gets a `provider_batch` row (PREPARING, memicl's id) and up to a file's
//              worth of its waiting items, claimed by the batch (no worker lease), in one transaction: the intent
//              is recorded before anything is sent; a budget holds their worst cases (at batch prices);
//   submitted  the JSONL file is uploaded and the batch created with memicl's id in its metadata, then its
//              provider id recorded (SUBMITTED). A process that died between the two is replaced by one that
//              finds the batch by that metadata (listing the provider's batches) before it would submit again;
//   polled     by any process, one at a time per batch (a lease on the row), with backoff; a cancelled run's
//              batch is cancelled at the provider;
//   collected  its output file's answers are stored with the same conditional writes as online answers, its
//              error file's and missing items go to another batch, online, or fail, by the provider's policy.

import { randomUUID } from "node:crypto";
import { DataSource } from "typeorm";
import { unpricedReason, worstCaseCallUsd } from "../budget/budget";
import { BudgetGate } from "../budget/budget-gate";
import { scrubSecrets } from "../common/secrets";
import { ClaimedRow, CompletionExecutor } from "../completion/completion-executor";
import {
  BatchApi,
  BatchItemOutcome,
  FINAL_BATCH_STATUSES,
  linesThatFit,
  ProviderBatchStatus,
  parseResultLines,
  requestLine,
} from "../llm/batch-api";
import { ProviderCallError } from "../llm/model-provider";
import { BatchOptions, batchOptionsOf } from "../llm/provider-config";
import { batchPrice, ProviderRegistry } from "../llm/provider-registry";
import { Logger } from "../logging/logger";
import { JobQueue } from "../queue/job-queue";
import * as sql from "./batch.sql";
import { ProviderBatchState } from "./provider-batch.entity";

/** How long a process holds a batch it works on before another may take it (renewed by each step). */
const BATCH_LEASE_SECONDS = 600;

/** Answers stored at once while collecting (the writer batches them into a few statements). */
const STORE_CHUNK = 500;

interface TakenBatch {
  id: string;
  run_id: string;
  provider: string;
  state: string;
  provider_batch_id: string | null;
  poll_seconds: number;
  run_status: string;
}

interface BatchProvider {
  name: string;
  api: BatchApi;
  options: BatchOptions;
  model: (model: string) => { inputPerMillion: number; outputPerMillion: number } | null;
}

/**
 * Forms, submits, polls and collects provider batches for the batch providers this process can call. Every
 * process that works on the queue runs one; they share the work through the database.
 */
export class BatchCoordinator {
  private readonly budget: BudgetGate;
  private running = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly providers: ProviderRegistry,
    private readonly executor: CompletionExecutor,
    private readonly queue: JobQueue,
    private readonly logger: Logger,
    /** The worker (this process) that holds the batches it works on. */
    private readonly workerId: string,
  ) {
    this.budget = new BudgetGate(dataSource);
  }

  /** The batch providers this process can call. */
  batchProviders(): BatchProvider[] {
    return this.providers
      .usable()
      .filter((config) => batchOptionsOf(config) !== null)
      .map((config) => {
        const handle = this.providers.get(config.name);
        return {
          name: config.name,
          api: handle.batch!,
          options: batchOptionsOf(config)!,
          model: (model: string) => {
            const price = config.prices[model];
            return price ? batchPrice(price) : null;
          },
        };
      });
  }

  /** One pass: new batches for runs with items to send, then every batch whose poll is due. */
  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const providers = this.batchProviders();
      if (providers.length === 0) return;
      const byName = new Map(providers.map((provider) => [provider.name, provider]));
      const runs: { id: string; provider: string; batch_attempts: number }[] = await this.dataSource.query(
        sql.runsToBatch,
        [providers.map((provider) => provider.name)],
      );
      for (const run of runs) await this.form(byName.get(run.provider)!, run.id, run.batch_attempts);
      for (let worked = 0; worked < 50; worked++) {
        const [taken]: [TakenBatch[], number] = await this.dataSource.query(sql.takeBatch, [
          this.workerId,
          BATCH_LEASE_SECONDS,
          providers.map((provider) => provider.name),
        ]);
        if (taken.length === 0) break;
        await this.work(byName.get(taken[0].provider)!, taken[0]);
      }
    } finally {
      this.running = false;
    }
  }

  /** Records a new batch with its items (one transaction), then sends it. */
  private async form(provider: BatchProvider, runId: string, batchAttempts: number): Promise<void> {
    const id = randomUUID();
    const items = await this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(
        "SELECT pg_try_advisory_xact_lock(hashtext('memicl:batch-form:' || $1::text)) AS locked",
        [runId],
      );
      if (!locked) return [] as ClaimedRow[];
      await manager.query(sql.createBatch, [id, runId, provider.name, this.workerId, BATCH_LEASE_SECONDS]);
      const rows: ClaimedRow[] = await manager.query(sql.includeItems, [
        runId,
        id,
        provider.options.maxRequestsPerFile,
        batchAttempts,
      ]);
      if (rows.length === 0) await manager.query("DELETE FROM provider_batch WHERE id = $1", [id]);
      return rows;
    });
    if (items.length === 0) return;
    let lines = await this.linesOf(items);
    // The file's limits: what does not fit goes back, for the next batch.
    const fit = linesThatFit(
      lines.map((line) => line.text),
      provider.options.maxRequestsPerFile,
      provider.options.maxBytesPerFile,
    );
    let keep = items.slice(0, fit);
    await this.giveBackUnsent(id, items.slice(fit));
    lines = lines.slice(0, fit);
    if (keep.some((item) => item.budgeted)) {
      const price = provider.model(lines[0].model);
      if (!price) {
        await this.giveBackUnsent(id, keep);
        await this.budget.pauseRun(
          { id: String(keep[0].id), run_id: runId, lease_token: keep[0].lease_token },
          unpricedReason(provider.name, lines[0].model),
        );
        await this.dropIfEmpty(id);
        return;
      }
      const costs = lines.map((line) => worstCaseCallUsd(price, line.countedTokens, line.maxOutputTokens));
      const { held } = await this.budget.holdMany(
        keep.map((item) => ({ id: String(item.id), run_id: item.run_id, lease_token: item.lease_token })),
        costs,
      );
      await this.giveBackUnsent(id, keep.slice(held));
      keep = keep.slice(0, held);
      lines = lines.slice(0, held);
    }
    const queued = await this.enqueue(provider, id, lines);
    await this.giveBackUnsent(id, keep.slice(queued));
    keep = keep.slice(0, queued);
    lines = lines.slice(0, queued);
    if (keep.length === 0) {
      await this.dropIfEmpty(id);
      return;
    }
    await this.submit(provider, id, lines);
  }

  /**
   * Records the batch's prompt tokens, and with `maxEnqueuedTokens` keeps only the lines (in order) that fit beside
   * the provider's other unfinished batches, decided one batch at a time per provider (an advisory lock): returns
   * how many lines stay.
   */
  private async enqueue(
    provider: BatchProvider,
    batchId: string,
    lines: { countedTokens: number }[],
  ): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      let keep = lines.length;
      if (provider.options.maxEnqueuedTokens !== null) {
        await manager.query("SELECT pg_advisory_xact_lock(hashtext('memicl:batch-queue:' || $1::text))", [
          provider.name,
        ]);
        const [{ enqueued }] = await manager.query(
          `SELECT coalesce(sum(tokens), 0)::float8 AS enqueued FROM provider_batch
           WHERE provider = $1 AND state <> 'COLLECTED' AND id <> $2`,
          [provider.name, batchId],
        );
        let room = provider.options.maxEnqueuedTokens - Number(enqueued);
        keep = 0;
        for (const line of lines) {
          if (line.countedTokens > room) break;
          room -= line.countedTokens;
          keep += 1;
        }
        // A request larger than the whole queue still goes, alone, when nothing else is queued: the provider says
        // whether it takes it (waiting would be for ever).
        if (keep === 0 && Number(enqueued) === 0 && lines.length > 0) keep = 1;
      }
      const tokens = lines.slice(0, keep).reduce((sum, line) => sum + line.countedTokens, 0);
      await manager.query("UPDATE provider_batch SET tokens = $2 WHERE id = $1", [batchId, tokens]);
      return keep;
    });
  }

  /** Sends a recorded batch; a failure leaves it PREPARING, to be found or sent again by the next pass. */
  private async submit(provider: BatchProvider, id: string, lines: { text: string }[]): Promise<void> {
    const jsonl = `${lines.map((line) => line.text).join("\n")}\n`;
    try {
      const status = await provider.api.submit(jsonl, id, this.providers.stopSignal);
      await this.record(id, ProviderBatchState.SUBMITTED, provider.options.pollMinSeconds, {
        status,
        bytes: Buffer.byteLength(jsonl),
      });
    } catch (error) {
      const message = `could not submit: ${scrubSecrets((error as Error).message)}`;
      const [[{ failures }]]: [[{ failures: number }], number] = await this.dataSource.query(
        "UPDATE provider_batch SET submit_failures = submit_failures + 1 WHERE id = $1 RETURNING submit_failures AS failures",
        [id],
      );
      // A refusal (a server without a Batch API answers 400 or 404) is not tried again; other failures are, up
      // to the provider's batch attempts.
      const refused = error instanceof ProviderCallError && !error.retryable;
      if (refused || failures >= provider.options.attempts) {
        await this.abandon(provider, id, refused ? `the provider refused it: ${message}` : message);
        return;
      }
      this.logger.warn({ err: error, batchId: id }, "could not submit a provider batch; trying again");
      await this.record(id, ProviderBatchState.PREPARING, provider.options.pollMinSeconds, {
        error: message,
      });
    }
  }

  /**
   * Gives up a batch that could not be sent: the run says why (its lastError), and the batch's requests go
   * online, with the run's other waiting ones (fallback "online"), or fail with the provider's message ("fail").
   */
  private async abandon(provider: BatchProvider, batchId: string, message: string): Promise<void> {
    const online = provider.options.fallback === "online";
    const text =
      `batch: provider "${provider.name}" did not take a batch (${message}); ` +
      (online ? "its requests are sent online instead" : "its requests fail (fallback: fail)");
    this.logger.warn({ batchId }, text);
    const items: ClaimedRow[] = await this.dataSource.query(sql.itemsOfBatch, [batchId]);
    const [batch]: { run_id: string }[] = await this.dataSource.query(
      "SELECT run_id FROM provider_batch WHERE id = $1",
      [batchId],
    );
    if (batch)
      await this.dataSource.query(
        `UPDATE run SET last_error = $2, batch_attempts = CASE WHEN $3 THEN 0 ELSE batch_attempts END WHERE id = $1`,
        [batch.run_id, text.slice(0, 2000), online],
      );
    if (online) {
      const [released]: [{ id: string; provider: string }[], number] = await this.dataSource.query(
        sql.giveBack,
        [items.map((item) => item.id), batchId, null, true],
      );
      if (released.length > 0)
        await this.queue.enqueue(
          "completion",
          released.map((row) => ({ completionId: row.id, provider: row.provider })),
          { priority: 1 },
        );
      this.queue.wake();
    } else for (const item of items) await this.executor.failBatchItem(item, text, null);
    await this.dataSource.query(
      `UPDATE provider_batch SET state = 'COLLECTED', last_error = $2, finished_at = clock_timestamp(),
              owner = NULL, lease_until = NULL
       WHERE id = $1`,
      [batchId, text.slice(0, 2000)],
    );
  }

  /**
   * Records what is known of a batch (its provider id and counts, or an error) and gives it back until its next
   * poll, `seconds` from now.
   */
  private async record(
    id: string,
    state: string,
    seconds: number,
    known: {
      status?: Omit<ProviderBatchStatus, "id"> & { id: string | null };
      error?: string;
      bytes?: number;
    },
  ): Promise<void> {
    await this.dataSource.query(sql.batchPolled, [
      id,
      state,
      seconds,
      known.status?.id ?? null,
      known.status?.status ?? null,
      known.status?.completed ?? null,
      known.status?.failed ?? null,
      known.error === undefined ? null : scrubSecrets(known.error).slice(0, 2000),
      known.bytes ?? null,
    ]);
  }

  /** Works on a batch it took: recover, cancel, poll, collect. */
  private async work(provider: BatchProvider, batch: TakenBatch): Promise<void> {
    try {
      if (batch.state === ProviderBatchState.PREPARING) return await this.recover(provider, batch);
      let status: ProviderBatchStatus;
      if (batch.run_status === "CANCELLED" && batch.state === ProviderBatchState.SUBMITTED)
        status = await provider.api.cancel(batch.provider_batch_id!, this.providers.stopSignal);
      else status = await provider.api.retrieve(batch.provider_batch_id!, this.providers.stopSignal);
      if (FINAL_BATCH_STATUSES.has(status.status)) return await this.collect(provider, batch, status);
      const state = batch.run_status === "CANCELLED" ? ProviderBatchState.CANCELLING : batch.state;
      await this.record(batch.id, state, nextPoll(provider, batch), { status: { ...status, id: null } });
    } catch (error) {
      this.logger.warn(
        { err: error, batchId: batch.id },
        "could not poll or collect a provider batch; trying again",
      );
      await this.record(batch.id, batch.state, nextPoll(provider, batch), {
        error: (error as Error).message,
      });
    }
  }

  /**
   * A batch recorded but not known to be at the provider (its process died, or the submission failed): the
   * provider's batches are searched for memicl's id first, so one that did arrive is adopted, never sent twice.
   */
  private async recover(provider: BatchProvider, batch: TakenBatch): Promise<void> {
    let found: ProviderBatchStatus | null;
    try {
      found = await provider.api.find(batch.id, this.providers.stopSignal);
    } catch (error) {
      // A provider that refuses to list batches has none of memicl's to adopt: send it (a refusal there gives up).
      if (!(error instanceof ProviderCallError) || error.retryable) throw error;
      found = null;
    }
    if (found) {
      this.logger.info(
        { batchId: batch.id, providerBatchId: found.id },
        "found a submitted batch by its metadata",
      );
      await this.record(batch.id, ProviderBatchState.SUBMITTED, provider.options.pollMinSeconds, {
        status: found,
      });
      return;
    }
    const items: ClaimedRow[] = await this.dataSource.query(sql.itemsOfBatch, [batch.id]);
    if (items.length === 0 || batch.run_status === "CANCELLED") {
      await this.giveBackUnsent(batch.id, items);
      await this.dropIfEmpty(batch.id);
      return;
    }
    await this.submit(provider, batch.id, await this.linesOf(items));
  }

  /**
   * Stores a finished batch's answers and settles its other items: a retryable error or no answer at all (an
   * expired or cancelled batch) sends the item to another batch while it has attempts left, else online (or
   * fails it, by the provider's `fallback`); any other error fails it. Collecting twice is harmless: stored
   * items are no longer the batch's.
   */
  private async collect(
    provider: BatchProvider,
    batch: TakenBatch,
    status: ProviderBatchStatus,
  ): Promise<void> {
    const outcomes = new Map<string, BatchItemOutcome>();
    for (const fileId of [status.outputFileId, status.errorFileId])
      if (fileId)
        for (const outcome of parseResultLines(
          await provider.api.fileText(fileId, this.providers.stopSignal),
        ))
          outcomes.set(outcome.customId, outcome);
    const items: ClaimedRow[] = await this.dataSource.query(sql.itemsOfBatch, [batch.id]);
    const cancelled = batch.run_status === "CANCELLED";
    let stored = 0;
    const retry: ClaimedRow[] = [];
    const failed: { item: ClaimedRow; message: string }[] = [];
    const answers: Promise<void>[] = [];
    const flush = async () => {
      await Promise.all(answers.splice(0));
    };
    for (const item of items) {
      const outcome = outcomes.get(String(item.id));
      if (outcome?.kind === "answer") {
        answers.push(
          this.executor
            .requestOf(item)
            .then(({ promptHash, cacheKey }) =>
              this.executor.storeBatchAnswer(item, outcome.result, { promptHash, cacheKey }),
            ),
        );
        stored += 1;
        if (answers.length >= STORE_CHUNK) await flush();
      } else if (outcome?.kind === "error" && !outcome.retryable && !cancelled)
        failed.push({ item, message: outcome.message });
      else retry.push(item);
    }
    await flush();
    for (const { item, message } of failed) await this.executor.failBatchItem(item, message, null);
    const reason =
      status.status === "failed"
        ? `batch failed: ${status.errors ?? "no reason given"}`
        : `batch ${status.status}: no answer for this request`;
    const messages = new Map(
      retry.map((item) => {
        const outcome = outcomes.get(String(item.id));
        return [String(item.id), outcome?.kind === "error" ? outcome.message : reason];
      }),
    );
    await this.settle(provider, batch.id, retry, messages, cancelled);
    await this.dataSource.query(sql.batchCollected, [
      batch.id,
      status.status,
      stored,
      failed.length + retry.length,
      status.status === "failed" ? (status.errors ?? "batch failed") : null,
    ]);
  }

  /**
   * Items a batch did not answer go back to waiting: to another batch while they have batch attempts left; else
   * online (a job each) or failed, by the provider's `fallback`. A cancelled run's items just wait.
   */
  private async settle(
    provider: BatchProvider,
    batchId: string,
    items: ClaimedRow[],
    messages: Map<string, string>,
    cancelled: boolean,
  ): Promise<void> {
    if (items.length === 0) return;
    const last = cancelled ? [] : await this.lastAttempts(items);
    if (provider.options.fallback === "fail")
      for (const item of items.filter((item) => last.includes(String(item.id))))
        await this.executor.failBatchItem(item, messages.get(String(item.id)) ?? "batch: no answer", null);
    const back =
      provider.options.fallback === "fail" ? items.filter((item) => !last.includes(String(item.id))) : items;
    if (back.length === 0) return;
    const [released]: [{ id: string; provider: string; batch_left: boolean }[], number] =
      await this.dataSource.query(sql.giveBack, [
        back.map((item) => item.id),
        batchId,
        messages.get(String(back[0].id)) ?? null,
        false,
      ]);
    const online = cancelled ? [] : released.filter((row) => !row.batch_left);
    if (online.length > 0)
      await this.queue.enqueue(
        "completion",
        online.map((row) => ({ completionId: row.id, provider: row.provider })),
        { priority: 1 },
      );
  }

  /** Which of `items` have used their run's last batch attempt. */
  private async lastAttempts(items: ClaimedRow[]): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT c.id::text AS id FROM completion c JOIN run r ON r.id = c.run_id
       WHERE c.id = ANY($1::bigint[]) AND c.batch_attempts >= r.batch_attempts`,
      [items.map((item) => item.id)],
    );
    return rows.map((row) => row.id);
  }

  /** Gives back items a batch never sent (their batch attempt does not count). */
  private async giveBackUnsent(batchId: string, items: ClaimedRow[]): Promise<void> {
    if (items.length === 0) return;
    await this.dataSource.query(sql.giveBack, [items.map((item) => item.id), batchId, null, true]);
    await this.dataSource.query(
      "UPDATE provider_batch SET request_count = (SELECT count(*) FROM completion WHERE batch_id = $1) WHERE id = $1",
      [batchId],
    );
  }

  /** A batch left with no items was never sent: its row goes. */
  private async dropIfEmpty(batchId: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM provider_batch b WHERE b.id = $1 AND b.provider_batch_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM completion c WHERE c.batch_id = b.id)`,
      [batchId],
    );
  }

  /** Each item's request line, as its online call would send it. */
  private async linesOf(
    items: ClaimedRow[],
  ): Promise<{ text: string; model: string; countedTokens: number; maxOutputTokens: number }[]> {
    const lines = [];
    for (const item of items) {
      const { request, countedTokens } = await this.executor.requestOf(item);
      lines.push({
        text: requestLine(String(item.id), request),
        model: request.model,
        countedTokens,
        maxOutputTokens: request.maxOutputTokens,
      });
    }
    return lines;
  }
}

/** The next poll of a batch: 1.5 times the last wait, within the provider's bounds. */
function nextPoll(provider: BatchProvider, batch: TakenBatch): number {
  return Math.min(
    provider.options.pollMaxSeconds,
    Math.max(provider.options.pollMinSeconds, batch.poll_seconds * 1.5),
  );
}
