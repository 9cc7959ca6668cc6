import { setTimeout as sleep } from "node:timers/promises";
import { ChatRequest, ChatResult, ModelProvider, ProviderCallError, storableResult } from "./model-provider";

export interface RetryPolicy {
  maxAttempts: number;
  timeoutMs: number;
  /** First backoff; each retry doubles it, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export type CallOutcome =
  | { ok: true; result: ChatResult; attempts: number; latencyMs: number }
  | {
      ok: false;
      error: ProviderCallError;
      attempts: number;
      latencyMs: number;
      /** The `stop` signal ended the call (this process is stopping): the work is not done, nor failed. */
      stopped?: boolean;
    };

/**
 * Calls the provider until it answers, a non-retryable error comes back, attempts run out, or `shouldStop`
 * says the run was cancelled. Waits what Retry-After asks when the provider says so, else exponential
 * backoff with full jitter. `beforeAttempt` runs before every call (rate limits). `stop` aborts an attempt in
 * flight and any wait; `stopWaiting` ends the waits only (and starts no further attempt), so that a stopping
 * process lets its calls in flight finish but does not wait for a limit: either way the outcome says `stopped`.
 * The attempt's timeout covers the provider call only, never the wait in `beforeAttempt`.
 */
export async function callWithRetries(
  provider: ModelProvider,
  request: ChatRequest,
  policy: RetryPolicy,
  hooks: {
    /** Waits for what the attempt needs (rate limits, a shared slot); may return what gives it back afterwards. */
    beforeAttempt?: (signal: AbortSignal) => Promise<void | null | (() => Promise<void>)>;
    shouldStop?: () => Promise<boolean>;
    stop?: AbortSignal;
    /**
     * Ends the waits (for `beforeAttempt`, between attempts) and starts no further attempt. When given, it is the
     * waits' only signal, so it must abort whenever `stop` does (a `ProviderRegistry`'s `waitSignal` does).
     */
    stopWaiting?: AbortSignal;
    /** After each attempt: how long it took, and its error (null when it answered) and whether it is tried again. */
    afterAttempt?: (attempt: {
      seconds: number;
      error: ProviderCallError | null;
      willRetry: boolean;
    }) => void;
  } = {},
): Promise<CallOutcome> {
  let attempts = 0;
  let lastError: ProviderCallError | null = null;
  let latencyMs = 0;
  const stopped = () => ({
    ok: false as const,
    error: new ProviderCallError("stopped: this process is shutting down", null, true),
    attempts,
    latencyMs,
    stopped: true,
  });
  const waitSignal = hooks.stopWaiting ?? hooks.stop;
  const stopping = () => hooks.stop?.aborted || hooks.stopWaiting?.aborted;
  while (attempts < policy.maxAttempts) {
    if (stopping()) return stopped();
    if (attempts > 0 && (await hooks.shouldStop?.())) break;
    // Waiting for a slot of the rate limits is not part of the attempt: its timeout starts when the call does,
    // and only stopping ends the wait (a long wait never fails an item that was never sent).
    let giveBack: void | null | (() => Promise<void>);
    try {
      giveBack = await hooks.beforeAttempt?.(waitSignal ?? NEVER);
    } catch (error) {
      if (stopping()) return stopped();
      throw error;
    }
    if (stopping()) {
      await giveBack?.().catch(() => {});
      return stopped();
    }
    const attempt = abortableAttempt(policy.timeoutMs, hooks.stop);
    try {
      attempts += 1;
      const started = performance.now();
      try {
        const result = storableResult(await provider.complete(request, attempt.signal));
        latencyMs = Math.round(performance.now() - started);
        hooks.afterAttempt?.({ seconds: latencyMs / 1000, error: null, willRetry: false });
        return { ok: true, result, attempts, latencyMs };
      } catch (error) {
        latencyMs = Math.round(performance.now() - started);
        if (hooks.stop?.aborted) return stopped();
        lastError = attempt.timedOut()
          ? new ProviderCallError(`timeout after ${policy.timeoutMs / 1000} s`, null, true)
          : error instanceof ProviderCallError
            ? error
            : new ProviderCallError(`the call failed: ${(error as Error)?.message}`, null, true);
      }
    } finally {
      attempt.done();
      // A shared slot is given back when the attempt ends, whatever its end (its lease lapses if this fails).
      if (giveBack) void giveBack().catch(() => {});
    }
    const error = lastError!;
    const willRetry = error.retryable && attempts < policy.maxAttempts;
    hooks.afterAttempt?.({ seconds: latencyMs / 1000, error: lastError, willRetry });
    if (!willRetry) break;
    const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempts - 1)) * Math.random();
    // Retry-After is honoured up to five minutes; beyond that the item is better retried later by hand.
    try {
      await sleep(error.retryAfterMs === null ? backoff : Math.min(error.retryAfterMs, 300_000), undefined, {
        signal: waitSignal,
      });
    } catch {
      return stopped();
    }
  }
  return {
    ok: false,
    error: lastError ?? new ProviderCallError("stopped before any attempt", null, true),
    attempts,
    latencyMs,
  };
}

/** A signal that never aborts, for waits when the caller gives no stop signal. */
const NEVER = new AbortController().signal;

/**
 * One attempt's signal: aborted when the attempt outlives `timeoutMs` or `stop` aborts. `done` clears the timer
 * and the listener at once (AbortSignal.timeout would keep each signal alive for the whole timeout, and
 * AbortSignal.any would tie every attempt to the long-lived `stop` signal).
 */
function abortableAttempt(timeoutMs: number, stop: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onStop = () => controller.abort();
  stop?.addEventListener("abort", onStop, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done() {
      clearTimeout(timer);
      stop?.removeEventListener("abort", onStop);
    },
  };
}

/** A provider's retry policy as configured: its attempts and timeout, backoff from 0.5 s up to 30 s. */
export function retryPolicyOf(config: { maxAttempts: number; timeoutSeconds: number }): RetryPolicy {
  return {
    maxAttempts: config.maxAttempts,
    timeoutMs: config.timeoutSeconds * 1000,
    baseDelayMs: 500,
    maxDelayMs: 30_000,
  };
}
