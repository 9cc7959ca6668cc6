// The life of a completion, all in this folder unless named:
//   created   RunLifecycle.startRun / startExperiment (src/run/run-lifecycle.ts): one row per instance and
//             repeat, and one queue job per row, in one transaction;
//   claimed   a process's Dispatcher (src/queue/dispatcher.ts) fetches jobs for its free slots; `claim` below
//             takes their rows (`claimCompletions`, completion.sql.ts); HeldClaims and the worker's beat
//             (src/worker/) keep the leases; the wiring is startWorkers (src/app/workers.ts);
//   called    `callAndStore` renders the prompt (src/template/prompt.service.ts), hashes it (prompt-hash.ts),
//             tries the response cache, then calls the provider with retries and the shared limits (src/llm/);
//   stored    CompletionWriter (completion-writer.ts) stores answers in batches with the run's counters
//             (`completeCompletions`), a memorization answer with its heuristic judgment;
//   judged    the trigger memicl_apply_judgment (migrations/1764442800000-InstanceVerdictCounts.ts) keeps
//             each completion's effective verdict and the verdict counts; LLM judges run in src/judgment/;
//   read      CompletionService and completion.resolver.ts (Run.completions, Completion.sampledInstance).
// docs/ARCHITECTURE.md tells the same with what happens when things go wrong.

import { setTimeout as sleep } from "node:timers/promises";
import { DataSource } from "typeorm";
import { chargeOf, Price, unpricedReason, worstCaseCallUsd } from "../budget/budget";
import { BudgetGate } from "../budget/budget-gate";
import { scrubSecrets, storableText } from "../common/secrets";
import { isTransientDatabaseError } from "../common/transient-error";
import { guessMatches, guessOf, instanceSlot } from "../guessing/masked-slot";
import { AnswerLayout, answerLayout, extractAnswer } from "../judge/answer-extraction";
import {
  defaultThresholds,
  heuristicDetails,
  heuristicVersionOf,
  judgeHeuristically,
} from "../judge/heuristic-judge";
import { rougeLFMeasure, roundScore } from "../judge/rouge-score";
import { callWithRetries, retryPolicyOf } from "../llm/call-with-retries";
import { ChatRequest, ChatResult, storableResult } from "../llm/model-provider";
import { batchPrice, ProviderRegistry } from "../llm/provider-registry";
import { ResponseCache } from "../llm/response-cache";
import { RateLimitWait, rateLimitReason } from "../llm/shared-rate-limiter";
import { countChatTokens, countTextTokens } from "../llm/tokenizer";
import { Logger } from "../logging/logger";
import {
  completionsStored,
  judgmentsMade,
  providerCallDuration,
  providerRetries,
  rateLimitWait,
  retryCause,
} from "../observability/metrics";
import * as optionSql from "../option-set/option-set.sql";
import { JobQueue } from "../queue/job-queue";
import { quizOptions } from "../quiz/quiz-prompts";
import { parseQuizAnswer } from "../quiz/quiz-range";
import { Run, RunJudge } from "../run/run.entity";
import { loadSiblingContinuations } from "../sample/sample.sql";
import { SampledInstance } from "../sample/sampled-instance.entity";
import { ChatMessage } from "../study/chat";
import { RunKind } from "../study/settings";
import { TaskKind } from "../study/task";
import { PreparedPrompts, PromptNaming, PromptService } from "../template/prompt.service";
import { runBodyOf } from "../template/prompt-template.entity";
import { HeldClaims } from "../worker/held-claims";
import { parseAnswer } from "./answer-parser";
import * as sql from "./completion.sql";
import { CompletedRow, CompletionWriter } from "./completion-writer";
import { OptionWriter } from "./option-writer";
import { PromptHasher } from "./prompt-hash";

/** How often a process tries again to give back items it could not record while the database was gone. */
const RELEASE_RETRY_MS = 1_000;

/** Storing a paid answer is tried again after this wait, doubled each time up to the next. */
const STORE_RETRY_FIRST_MS = 100;
const STORE_RETRY_MAX_MS = 2_000;

/** A run's rate-limit waiting reason is written at most this often by one process. */
const WAITING_REASON_EVERY_MS = 5_000;

export interface ClaimedRow {
  id: string;
  run_id: string;
  repeat: number;
  lease_token: string;
  attempts: number;
  /** The run or its experiment has a budget: the call holds its worst case before it starts. */
  budgeted: boolean;
  item_id: string;
  sample_id: string;
  instance_id: string;
  position: number;
  label: string;
  initial_segment: string;
  subsequent_segment: string;
  cut_token_index: number | null;
  token_count: number;
  text: string;
  second_text: string | null;
}

interface RunPlan {
  run: Run;
  prompts: PreparedPrompts;
  /** Sibling continuations by sampled-instance id (NLI memorization runs), for the judge's sibling rule. */
  siblings: Map<string, string[]>;
  /** Memorization runs: the prompt's layout, which answers are extracted by before judging. */
  layout: AnswerLayout | null;
  /** Hashes prompts with the shared demonstrations hashed once. */
  hasher: PromptHasher;
  /** Option generation: the generations an instance may take (its option set's). */
  maxGenerations: number;
  /** Quiz runs: their option set's final options by sampled instance, read again when one is missing. */
  options: Map<string, optionSql.FinalOption>;
}

/**
 * Produces one completion: claim it, build its prompt, call the model (through the response cache, the
 * shared rate limits and retries), then store the answer with one conditional statement. Whatever happens
 * in between, the row is either still claimable or written once.
 */
export class CompletionExecutor {
  private readonly plans = new Map<string, Promise<RunPlan>>();
  private readonly siblings = new Map<string, Promise<Map<string, string[]>>>();
  /** When this process last wrote each run's waiting reason (a rate limit, a budget's calls in flight). */
  private readonly waitingSaid = new Map<string, number>();
  /** Answers are written in batches per run while a write is in flight (one commit for many). */
  private readonly writer: CompletionWriter;
  /** Holds budgeted calls' worst cases, and pauses runs whose budget a call could exceed. */
  private readonly budget: BudgetGate;
  private readonly cache: ResponseCache;

  constructor(
    private readonly dataSource: DataSource,
    private readonly prompts: PromptService,
    private readonly providers: ProviderRegistry,
    private readonly leaseSeconds: number,
    private readonly logger: Logger,
    private readonly queue: JobQueue,
    /** The worker (this process) that holds the leases it takes. */
    private readonly workerId: string,
    /** The claims this process is working on, whose leases its beat renews. */
    private readonly held: HeldClaims = new HeldClaims(),
  ) {
    this.writer = new CompletionWriter(dataSource);
    this.optionWriter = new OptionWriter(dataSource, queue);
    this.budget = new BudgetGate(dataSource);
    this.cache = new ResponseCache(dataSource);
  }

  /** Stores option generations with their checks, and the next generation when they fail. */
  private readonly optionWriter: OptionWriter;

  /**
   * A quiz item's options: the four its quiz shows (the perturbations, or the original at the run's position), or
   * why it has none (its instance's options were given up, or are not final: the claim waits for final ones).
   */
  private async quizOptionsOf(
    plan: RunPlan,
    claimed: ClaimedRow,
  ): Promise<{ options: string[] } | { problem: string }> {
    const key = String(claimed.item_id);
    if (!plan.options.has(key)) {
      const rows: optionSql.FinalOption[] = await this.dataSource.query(optionSql.finalOptions, [
        plan.run.optionSetId,
      ]);
      for (const row of rows) plan.options.set(String(row.item_id), row);
    }
    const found = plan.options.get(key);
    if (!found) return { problem: "its instance's options are not generated yet" };
    if (!found.valid)
      return {
        problem:
          `no usable quiz options for this instance: ${found.generations} generation(s) rejected, the last for ` +
          found.problems.join("; "),
      };
    const original = plan.prompts.original(toItem(claimed), {
      text: claimed.text,
      secondText: claimed.second_text,
    });
    return { options: quizOptions(found.options, original, plan.run.quizPosition) };
  }

  /**
   * Claims a fetched batch of completions in one statement; one value per id: its claim, or null when it
   * cannot be claimed (done already, claimed by a live worker, or its run is not active), which needs nothing.
   */
  async claim(completionIds: string[]): Promise<(ClaimedRow | null)[]> {
    // Held (renewed by the beat) from the moment the claim is ours: never while a beat is under way (held-claims.ts).
    const byId = await this.held.claiming(async () => {
      let rows: ClaimedRow[];
      try {
        rows = await this.dataSource.query(sql.claimCompletions, [
          completionIds,
          this.leaseSeconds,
          this.workerId,
        ]);
      } catch (error) {
        // The claim may have been committed before the connection broke: nobody here works on these items, so
        // what this worker holds of them is given back once the database answers (not a lease later).
        for (const id of completionIds) this.maybeClaimed.add(id);
        this.scheduleReleases();
        throw error;
      }
      const claimed = new Map(rows.map((row) => [String(row.id), row]));
      for (const id of claimed.keys()) this.held.add(id);
      return claimed;
    });
    // Two jobs for one item fetched together (a duplicate job is harmless otherwise) must not both work on its
    // one claim: both would call the model and store the answer in one batch, counting it twice.
    const given = new Set<string>();
    return completionIds.map((id) => {
      if (given.has(id)) return null;
      given.add(id);
      return byId.get(id) ?? null;
    });
  }

  /** Gives claimed completions back untouched (claimed with a fetched batch, never started: this process stops). */
  async release(claims: (ClaimedRow | null)[]): Promise<void> {
    for (const claimed of claims) {
      if (!claimed) continue;
      try {
        await this.dataSource.query(sql.releaseCompletion, [claimed.id, claimed.lease_token]);
      } finally {
        this.held.delete(String(claimed.id));
      }
    }
  }

  /**
   * Works on a claimed completion. An error of ours after the claim (not the model's: a failed insert, an
   * unrenderable prompt) never orphans the item: it is released with the error recorded and queued again
   * after a backoff, or failed once its attempts are spent. `slotFree` (the dispatcher's callback) is told when the model has answered
   * (or the cache has): what is left is storing, which needs no provider slot. A failure keeps its slot until it
   * is recorded, so the circuit breaker counts failures before the next call starts.
   */
  async executeClaim(claimed: ClaimedRow | null, slotFree: () => void = () => {}): Promise<void> {
    if (!claimed) return;
    try {
      await this.callAndStore(claimed, slotFree);
    } catch (error) {
      try {
        await this.recover(claimed, error as Error);
      } catch (failure) {
        // The database is gone (recording the failure failed too): the item is given back as soon as it answers.
        this.releaseLater(claimed);
        throw failure;
      }
    } finally {
      // Recorded, released, or (the database gone) neither: in every case this process stops renewing the
      // lease, so an unrecorded item comes back to the queue at the latest once its lease lapses.
      this.held.delete(String(claimed.id));
    }
  }

  /** Claims whose outcome could not be recorded, to give back (and queue again) once the database answers. */
  private readonly unreleased = new Map<string, ClaimedRow>();
  private releaseTimer: NodeJS.Timeout | null = null;

  /** Items a failed claim statement may have claimed for this worker. */
  private readonly maybeClaimed = new Set<string>();

  private releaseLater(claimed: ClaimedRow): void {
    this.unreleased.set(String(claimed.id), claimed);
    this.scheduleReleases();
  }

  private scheduleReleases(): void {
    if (this.releaseTimer) return;
    this.releaseTimer = setInterval(() => void this.retryReleases(), RELEASE_RETRY_MS);
    this.releaseTimer.unref();
  }

  private releasing = false;

  /** Gives back what could not be recorded, once the database answers; what another worker took is left alone. */
  private async retryReleases(): Promise<void> {
    if (this.releasing) return;
    this.releasing = true;
    try {
      if (this.maybeClaimed.size > 0) {
        const ids = [...this.maybeClaimed];
        const released: { id: string; provider: string }[] = await this.dataSource.query(
          `WITH released AS (
             UPDATE completion SET status = 'PENDING', lease_token = NULL, lease_until = NULL, lease_owner = NULL
             WHERE id = ANY($1::bigint[]) AND lease_owner = $2 AND status = 'RUNNING' AND NOT (id = ANY($3::bigint[]))
             RETURNING id, run_id
           )
           SELECT released.id::text AS id, run.provider FROM released JOIN run ON run.id = released.run_id`,
          [ids, this.workerId, this.held.ids()],
        );
        for (const id of ids) this.maybeClaimed.delete(id);
        if (released.length > 0)
          await this.queue.enqueue(
            "completion",
            released.map((row) => ({ completionId: row.id, provider: row.provider })),
            { priority: 1 },
          );
      }
      for (const [id, claimed] of [...this.unreleased]) {
        const released: { provider: string }[] = await this.dataSource.query(
          `WITH released AS (
             UPDATE completion SET status = 'PENDING', lease_token = NULL, lease_until = NULL, lease_owner = NULL
             WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING'
             RETURNING run_id
           )
           SELECT run.provider FROM released JOIN run ON run.id = released.run_id`,
          [claimed.id, claimed.lease_token],
        );
        this.unreleased.delete(id);
        if (released.length > 0) {
          await this.queue.enqueue("completion", [{ completionId: id, provider: released[0].provider }], {
            priority: 1,
          });
          this.logger.info(
            { completionId: id },
            "gave back an item whose outcome the database could not take",
          );
        }
      }
    } catch {
      // Still gone: the next tick tries again (and the lease lapses meanwhile if this process dies).
    } finally {
      this.releasing = false;
      if (this.unreleased.size === 0 && this.maybeClaimed.size === 0 && this.releaseTimer) {
        clearInterval(this.releaseTimer);
        this.releaseTimer = null;
      }
    }
  }

  private async recover(claimed: ClaimedRow, error: Error): Promise<void> {
    const message = scrubSecrets(storableText(`memicl could not store this item: ${error.message}`)).slice(
      0,
      2000,
    );
    this.logger.warn({ err: error, completionId: claimed.id }, "error after claiming an item; releasing it");
    const plan = await this.plan(claimed.run_id).catch(() => null);
    const maxAttempts = plan ? this.providers.config(plan.run.provider).maxAttempts : 1;
    if (claimed.attempts + 1 >= maxAttempts || !plan) {
      await this.dataSource.query(sql.failCompletion, [
        claimed.id,
        claimed.lease_token,
        message,
        1,
        null,
        null,
        plan ? this.providers.config(plan.run.provider).circuitBreakerFailures : 1_000_000,
      ]);
      return;
    }
    await this.dataSource.query(sql.releaseAfterError, [claimed.id, claimed.lease_token, message]);
    await this.queue.enqueue(
      "completion",
      [{ completionId: String(claimed.id), provider: plan.run.provider }],
      {
        delaySeconds: Math.min(60, 2 ** claimed.attempts),
      },
    );
  }

  private async callAndStore(claimed: ClaimedRow, slotFree: () => void): Promise<void> {
    const completionId = String(claimed.id);
    const plan = await this.plan(claimed.run_id);
    const { run } = plan;
    let options: string[] | undefined;
    if (run.kind === RunKind.QUIZ) {
      const quiz = await this.quizOptionsOf(plan, claimed);
      if ("problem" in quiz) {
        // Nothing to show: failed at once, without a call.
        await this.fail(claimed, quiz.problem, 0, null, null, this.providers.config(run.provider));
        return;
      }
      options = quiz.options;
    }
    if (
      run.kind === RunKind.GUESSING &&
      !instanceSlot({ text: claimed.text, secondText: claimed.second_text })
    ) {
      // Nothing to ask: failed at once, without a call, and counted as not compared.
      await this.fail(
        claimed,
        "TS-Guessing: no word of this instance can be masked (a noun, adjective or verb of three letters or more " +
          "that the text shows once)",
        0,
        null,
        null,
        this.providers.config(run.provider),
      );
      return;
    }
    const { request, promptHash, cacheKey } = render(plan, claimed, options);
    const { messages } = request;
    if (run.kind === RunKind.LOGPROB) {
      const config = this.providers.config(run.provider);
      request.score = { top: config.type === "openai" ? (config.promptLogprobs?.top ?? 5) : 5 };
    }

    if (cacheKey) {
      const cached = await this.cache.lookup(cacheKey);
      if (cached) {
        slotFree();
        await this.complete(claimed, plan, cached, {
          attempts: 0,
          latencyMs: 0,
          cacheHit: true,
          promptHash,
          cacheKey: null,
        });
        return;
      }
    }

    const handle = this.providers.get(run.provider);
    const estimatedTokens = handle.limiter.limited ? countChatTokens(messages) + run.maxOutputTokens : 0;
    const tooLarge = handle.limiter.neverFits(estimatedTokens);
    if (tooLarge) {
      // It could never be sent: failed at once, without an attempt, with both numbers.
      await this.fail(claimed, tooLarge, 0, null, promptHash, handle.config);
      return;
    }
    if (claimed.budgeted && !(await this.holdBudget(claimed, run, handle.config, messages))) return;
    let lost = false;
    const outcome = await callWithRetries(handle.provider, request, retryPolicyOf(handle.config), {
      stop: this.providers.stopSignal,
      stopWaiting: this.providers.waitSignal,
      beforeAttempt: async (signal) => {
        const waitStarted = performance.now();
        await handle.limiter.acquire(estimatedTokens, signal, (wait) => this.sayWaiting(run, wait));
        const giveBack = await handle.limiter.acquireSlot(signal, (wait) => this.sayWaiting(run, wait));
        const waited = (performance.now() - waitStarted) / 1000;
        if (waited > 0.001) rateLimitWait.inc({ provider: run.provider }, waited);
        return giveBack;
      },
      afterAttempt: ({ seconds, error, willRetry }) => {
        providerCallDuration.observe({ provider: run.provider, outcome: error ? "error" : "ok" }, seconds);
        if (error && willRetry) providerRetries.inc({ provider: run.provider, cause: retryCause(error) });
      },
      shouldStop: async () => {
        const [state]: { run_status: string; held: boolean }[] = await this.dataSource.query(sql.claimState, [
          claimed.id,
          claimed.lease_token,
        ]);
        if (!state?.held) lost = true;
        return lost || (state.run_status !== "QUEUED" && state.run_status !== "RUNNING");
      },
    });
    if (lost) {
      this.logger.warn(
        { completionId },
        "lost the claim on a completion while retrying; another worker has it",
      );
      return;
    }
    if (outcome.ok) {
      slotFree();
      await this.complete(claimed, plan, outcome.result, {
        attempts: outcome.attempts,
        latencyMs: outcome.latencyMs,
        cacheHit: false,
        promptHash,
        cacheKey,
      });
      return;
    }
    if (outcome.stopped) {
      // This process is stopping: the item goes back untouched, for the next worker to call again.
      await this.dataSource.query(sql.releaseCompletion, [claimed.id, claimed.lease_token]);
      return;
    }
    const [{ status }] = await this.dataSource.query(sql.runStatus, [claimed.run_id]);
    if (status !== "QUEUED" && status !== "RUNNING" && outcome.error.retryable) {
      // Stopped while retrying: give the item back untouched, so resuming the run picks it up.
      await this.dataSource.query(sql.releaseCompletion, [claimed.id, claimed.lease_token]);
      return;
    }
    await this.fail(
      claimed,
      scrubSecrets(outcome.error.message),
      outcome.attempts,
      outcome.latencyMs,
      promptHash,
      handle.config,
    );
  }

  /**
   * A budgeted call holds its worst case (its prompt's tokens with a margin, every output token it allows) before
   * it starts; true when it may start. Otherwise the item has been given back: its runs paused when the call could
   * exceed the budget (raising it resumes them), or queued again shortly when only the calls in flight are in the
   * way. A provider without a price for the model here cannot be called under a budget: the run pauses, saying so.
   */
  private async holdBudget(
    claimed: ClaimedRow,
    run: Run,
    provider: { name: string; prices: Record<string, Price> },
    messages: ChatMessage[],
  ): Promise<boolean> {
    const price = provider.prices[run.model];
    if (!price) {
      await this.budget.pauseRun(claimed, unpricedReason(provider.name, run.model));
      return false;
    }
    const worst = worstCaseCallUsd(price, countChatTokens(messages), run.maxOutputTokens);
    const outcome = await this.budget.hold(claimed, worst);
    if (outcome.kind === "fits") return true;
    if (outcome.kind === "wait") {
      await this.queue.enqueue("completion", [{ completionId: String(claimed.id), provider: run.provider }], {
        delaySeconds: 1,
      });
      this.sayReason(run, outcome.reason);
    }
    return false;
  }

  /** What an answered call is charged (budget.ts `chargeOf`), or null when the model has no price here. */
  private chargeOf(run: Run, plan: RunPlan, claimed: ClaimedRow, usage: ChatResult, batch: boolean) {
    const configured = this.providers.config(run.provider).prices[run.model];
    if (!configured) return null;
    return chargeOf(batch ? batchPrice(configured) : configured, usage, {
      countedPromptTokens: () => countChatTokens(render(plan, claimed).request.messages),
      countedCompletionTokens: () => countTextTokens(usage.text),
      maxOutputTokens: run.maxOutputTokens,
    });
  }

  private async fail(
    claimed: ClaimedRow,
    message: string,
    attempts: number,
    latencyMs: number | null,
    promptHash: string | null,
    provider: { name: string; circuitBreakerFailures: number },
  ): Promise<void> {
    await this.dataSource.query(sql.failCompletion, [
      claimed.id,
      claimed.lease_token,
      message,
      attempts,
      latencyMs,
      promptHash,
      provider.circuitBreakerFailures,
    ]);
    completionsStored.inc({ provider: provider.name, status: "failed" });
  }

  /**
   * A rate limit holds this run's calls back: the run says so at once (at most every few seconds per run and
   * process); the reconciler keeps the reason current and clears it when the waits end.
   */
  private sayWaiting(run: Run, wait: RateLimitWait): void {
    const now = Date.now();
    if (wait.waitedMs < 1000 && wait.until.getTime() - now < 1000) return;
    this.sayReason(run, rateLimitReason(run.provider, wait));
  }

  /** Writes a run's waiting reason at most every few seconds per run and process. */
  private sayReason(run: Run, reason: string): void {
    const now = Date.now();
    if ((this.waitingSaid.get(run.id) ?? 0) > now - WAITING_REASON_EVERY_MS) return;
    this.waitingSaid.set(run.id, now);
    if (this.waitingSaid.size > 1000) this.waitingSaid.delete(this.waitingSaid.keys().next().value!);
    this.dataSource
      .query(
        `UPDATE run SET waiting_reason = $2
         WHERE id = $1 AND status IN ('QUEUED', 'RUNNING') AND waiting_reason IS DISTINCT FROM $2`,
        [run.id, reason],
      )
      .catch((error) =>
        this.logger.warn({ err: error, runId: run.id }, "could not record a run's waiting reason"),
      );
  }

  /**
   * Stores an answer the provider has given (and been paid for). An error that passes (a lost connection, the
   * database restarting, a deadlock's victim) is tried again with backoff, for up to two leases, while the item
   * stays held (the beat keeps its lease, and nobody else may take it): releasing it would make the call again and
   * pay for it twice. Other errors, one that lasts, or this process stopping end it as before (`recover`).
   */
  private async storePaid(completionId: string, store: () => Promise<void>): Promise<void> {
    const stop = this.providers.stopSignal;
    const deadline = performance.now() + 2 * this.leaseSeconds * 1000;
    for (let waitMs = STORE_RETRY_FIRST_MS; ; waitMs = Math.min(2 * waitMs, STORE_RETRY_MAX_MS)) {
      try {
        return await store();
      } catch (error) {
        if (!isTransientDatabaseError(error) || stop.aborted || performance.now() + waitMs > deadline)
          throw error;
        if (waitMs === STORE_RETRY_FIRST_MS)
          this.logger.warn(
            { err: error, completionId },
            "could not store an answer; trying again while the item is held",
          );
        await sleep(waitMs, undefined, { signal: stop }).catch(() => {});
      }
    }
  }

  private async complete(
    claimed: ClaimedRow,
    plan: RunPlan,
    result: ChatResult,
    call: {
      attempts: number;
      latencyMs: number;
      cacheHit: boolean;
      promptHash: string;
      cacheKey: string | null;
      /** Answered through the provider's Batch API (at its batch prices). */
      batch?: boolean;
    },
  ) {
    const { run, prompts, siblings, layout } = plan;
    let parsedLabel: string | null = null;
    let correct: boolean | null = null;
    if (run.kind === RunKind.PERFORMANCE) {
      const answer = parseAnswer(result.text, prompts.naming.labelVerbalizers);
      parsedLabel = answer.outcome === "label" ? answer.label : null;
      correct = parsedLabel === claimed.label;
    } else if (run.kind === RunKind.QUIZ) {
      // The letter answered (null: UNREADABLE); a compensator quiz's answer is right when it is the original's.
      parsedLabel = parseQuizAnswer(result.text);
      correct = run.quizPosition ? parsedLabel === run.quizPosition : null;
    } else if (run.kind === RunKind.GUESSING) {
      // The word answered, and whether it is the masked one (the authors' exact match).
      const slot = instanceSlot({ text: claimed.text, secondText: claimed.second_text });
      parsedLabel = guessOf(result.text).slice(0, 200) || null;
      correct = slot ? guessMatches(result.text, slot.word) : null;
    }
    const charge = call.cacheHit ? null : this.chargeOf(run, plan, claimed, result, call.batch ?? false);
    const cost = call.cacheHit ? 0 : (charge?.usd ?? null);
    // Memorization answers are judged as they land: by the heuristic judge here (no call, so it cannot fail),
    // or by an LLM judge on the judgment queue (below).
    const judge = run.judge as RunJudge;
    // Every setting's answer goes through the same extraction; judges see the extracted answer.
    const extracted = layout ? extractAnswer(result.text, layout, claimed.initial_segment) : null;
    const version = heuristicVersionOf(judge);
    const thresholds = defaultThresholds(version);
    // A continuation (CDD) is compared with its siblings by the report, never judged.
    const judged =
      extracted && judge.kind !== "LLM" && run.kind === RunKind.MEMORIZATION
        ? judgeHeuristically(
            claimed.subsequent_segment,
            extracted.answer,
            thresholds,
            siblings.get(String(claimed.item_id)) ?? [],
            {
              version,
              context: {
                firstPiece: claimed.initial_segment,
                nli: prompts.dataset.taskKind === TaskKind.NLI,
              },
            },
          )
        : null;
    const row: CompletedRow = {
      id: String(claimed.id),
      lease_token: claimed.lease_token,
      output: result.text,
      finish_reason: result.finishReason,
      prompt_tokens: result.promptTokens,
      completion_tokens: result.completionTokens,
      cached_tokens: result.cachedTokens,
      latency_ms: call.latencyMs,
      attempts: call.attempts,
      reported_model: result.reportedModel,
      system_fingerprint: result.systemFingerprint,
      cache_hit: call.cacheHit,
      parsed_label: parsedLabel,
      correct,
      prompt_hash: call.promptHash,
      cost_usd: cost,
      cache_key: call.cacheKey,
      provider: run.provider,
      model: run.model,
      response: call.cacheKey ? result : null,
      verdict: judged?.verdict ?? null,
      judge_version: version,
      details: judged ? heuristicDetails(judged, thresholds) : null,
      extracted_answer: extracted?.answer ?? null,
      extraction_rule: extracted?.rule ?? null,
      // Algorithm 1's per-instance score, stored with the answer (the report reads it, not the texts).
      rouge_l: extracted ? roundScore(rougeLFMeasure(claimed.subsequent_segment, extracted.answer)) : null,
      token_logprobs: result.tokenLogprobs ?? null,
    };
    if (run.kind === RunKind.QUIZ_OPTIONS)
      await this.storePaid(row.id, () =>
        this.optionWriter.store(
          run,
          plan.maxGenerations,
          {
            id: String(claimed.id),
            leaseToken: claimed.lease_token,
            sampledInstanceId: String(claimed.item_id),
            repeat: claimed.repeat,
            original: prompts.original(toItem(claimed), {
              text: claimed.text,
              secondText: claimed.second_text,
            }),
          },
          row,
        ),
      );
    else await this.storePaid(row.id, () => this.writer.write(run.id, row));
    completionsStored.inc({ provider: run.provider, status: "succeeded" });
    if (charge && charge.notes.length > 0) {
      this.logger.warn(
        { runId: run.id, completionId: row.id, charged: charge.usd, notes: charge.notes },
        "charged a call more than its reported usage says, or capped it",
      );
      // A provider that ignores max_tokens can overrun any budget by a call: its runs stop here, saying why.
      if (charge.overran && claimed.budgeted)
        await this.budget.pauseOverrun(
          run.id,
          `budget: provider "${run.provider}" overran max_tokens (${charge.notes.join("; ")}); the budget's runs ` +
            "are paused: lower max_tokens or check the provider, then resume (memicl budget, setBudget)",
        );
    }
    if (judged) judgmentsMade.inc({ judge_kind: "HEURISTIC", verdict: judged.verdict });
    if (run.kind === RunKind.MEMORIZATION && judge.kind === "LLM") {
      // Judged on the judgment queue; if this process dies first, `rejudge` with the same judge fills the gap.
      await this.queue.enqueue("judgment", [
        {
          completionId: String(claimed.id),
          provider: judge.provider,
          model: judge.model,
          request: `auto:${run.id}`,
          promptVersion: judge.promptVersion,
          ...(judge.judgeVersion ? { judgeVersion: judge.judgeVersion } : {}),
        },
      ]);
    }
  }

  /**
   * The request a claimed item sends, exactly as its online call would (a provider batch's input line), with its
   * prompt hash and cache key and the prompt's tokens as memicl counts them.
   */
  async requestOf(claimed: ClaimedRow): Promise<{
    run: Run;
    request: ChatRequest;
    promptHash: string;
    cacheKey: string | null;
    countedTokens: number;
  }> {
    const plan = await this.plan(claimed.run_id);
    const rendered = render(plan, claimed);
    return { run: plan.run, ...rendered, countedTokens: countChatTokens(rendered.request.messages) };
  }

  /**
   * Stores an answer a provider batch gave for a claimed item: parsed, judged, priced at batch prices and written
   * with the same conditional statement as an online answer (only while the claim is the batch's, never over a
   * success), so collecting a batch twice stores each answer once.
   */
  async storeBatchAnswer(
    claimed: ClaimedRow,
    result: ChatResult,
    call: { promptHash: string; cacheKey: string | null },
  ): Promise<void> {
    const plan = await this.plan(claimed.run_id);
    await this.complete(claimed, plan, storableResult(result), {
      attempts: 1,
      latencyMs: 0,
      cacheHit: false,
      promptHash: call.promptHash,
      cacheKey: call.cacheKey,
      batch: true,
    });
  }

  /** Fails an item its batch could not answer and that is not tried again (counted on the run, breaker too). */
  async failBatchItem(claimed: ClaimedRow, message: string, promptHash: string | null): Promise<void> {
    const plan = await this.plan(claimed.run_id);
    await this.fail(claimed, message, 1, null, promptHash, this.providers.config(plan.run.provider));
  }

  /** A sample's sibling continuations, read once per process and sample (every memorization run shares them). */
  private siblingsOf(sampleId: string): Promise<Map<string, string[]>> {
    let siblings = this.siblings.get(sampleId);
    if (!siblings) {
      siblings = loadSiblingContinuations(
        (text, parameters) => this.dataSource.query(text, parameters),
        [sampleId],
      );
      siblings.catch(() => this.siblings.delete(sampleId));
      if (this.siblings.size > 50) this.siblings.delete(this.siblings.keys().next().value!);
      this.siblings.set(sampleId, siblings);
    }
    return siblings;
  }

  /** A run's fixed inputs and its prepared prompts, built once per process and run. */
  private plan(runId: string): Promise<RunPlan> {
    let plan = this.plans.get(runId);
    if (!plan) {
      plan = (async () => {
        const run = await this.dataSource.manager.findOneByOrFail(Run, { id: runId });
        const prompts = await this.prompts.prepare({
          sampleId: run.sampleId,
          kind: run.kind,
          setting: run.setting,
          shots: run.shots,
          templateVersion: run.templateVersion,
          naming: run.parameters.naming as PromptNaming,
          inContext: run.parameters.inContext === true,
        });
        const siblings =
          run.kind === RunKind.MEMORIZATION
            ? await this.siblingsOf(run.sampleId)
            : new Map<string, string[]>();
        // Answers to a memorization template are extracted: the replication's, and CDD's guided continuations.
        const layout =
          run.kind === RunKind.MEMORIZATION || (run.kind === RunKind.CONTINUATION && run.setting)
            ? answerLayout(runBodyOf(prompts.template))
            : null;
        const hasher = new PromptHasher(prompts.frame, { provider: run.provider, model: run.model });
        const [set]: { max_generations: number }[] =
          run.kind === RunKind.QUIZ_OPTIONS
            ? await this.dataSource.query("SELECT max_generations FROM quiz_option_set WHERE id = $1", [
                run.optionSetId,
              ])
            : [];
        return {
          run,
          prompts,
          siblings,
          layout,
          hasher,
          maxGenerations: set?.max_generations ?? 1,
          options: new Map<string, optionSql.FinalOption>(),
        };
      })();
      plan.catch(() => this.plans.delete(runId));
      if (this.plans.size > 200) this.plans.delete(this.plans.keys().next().value!);
      this.plans.set(runId, plan);
    }
    return plan;
  }
}

/** A claimed item's request as its run sends it, with its prompt hash and (when the run caches) its cache key. */
function render(
  { run, prompts, hasher }: RunPlan,
  claimed: ClaimedRow,
  options?: readonly string[],
): { request: ChatRequest; promptHash: string; cacheKey: string | null } {
  const { messages, query } = prompts.renderParts(
    toItem(claimed),
    { text: claimed.text, secondText: claimed.second_text },
    options,
  );
  const topP = typeof run.parameters.topP === "number" ? run.parameters.topP : undefined;
  // A run with top_p set is keyed by both (its answers are not a plain temperature's); without, as it always was.
  const sampling = topP === undefined ? run.temperature : { temperature: run.temperature, topP };
  return {
    request: {
      model: run.model,
      messages,
      temperature: run.temperature,
      maxOutputTokens: run.maxOutputTokens,
      ...(topP !== undefined ? { topP } : {}),
      // CDD's raw first piece: continued as text by the completions endpoint, not answered as a chat message.
      ...(run.kind === RunKind.CONTINUATION && !run.setting ? { raw: true } : {}),
    },
    promptHash: hasher.promptHash(messages, query),
    cacheKey: run.cacheEnabled
      ? hasher.cacheKey(messages, sampling, run.maxOutputTokens, claimed.repeat, query)
      : null,
  };
}

function toItem(row: ClaimedRow): SampledInstance {
  return Object.assign(new SampledInstance(), {
    id: String(row.item_id),
    sampleId: row.sample_id,
    instanceId: String(row.instance_id),
    position: row.position,
    label: row.label,
    initialSegment: row.initial_segment,
    subsequentSegment: row.subsequent_segment,
    cutTokenIndex: row.cut_token_index,
    tokenCount: row.token_count,
  });
}
