import { getMaxListeners } from "node:events";
import { callWithRetries, RetryPolicy } from "../../../src/llm/call-with-retries";
import { ChatRequest, ChatResult, ModelProvider, ProviderCallError } from "../../../src/llm/model-provider";
import { ProviderRegistry } from "../../../src/llm/provider-registry";

const request: ChatRequest = {
  model: "m",
  messages: [{ role: "user", content: "hi" }],
  temperature: 0,
  maxOutputTokens: 5,
};
const policy: RetryPolicy = { maxAttempts: 3, timeoutMs: 60_000, baseDelayMs: 1, maxDelayMs: 1 };

const answer = (text: string): ChatResult => ({
  text,
  finishReason: "stop",
  promptTokens: 1,
  completionTokens: 1,
  cachedTokens: null,
  reportedModel: "m",
  systemFingerprint: null,
});

/** A provider that plays a script: an answer, an error to throw, or "hang" (until its signal aborts). */
function scripted(steps: (string | ProviderCallError | "hang")[]): ModelProvider & { calls: number } {
  const provider = {
    name: "scripted",
    calls: 0,
    complete(_request: ChatRequest, signal: AbortSignal): Promise<ChatResult> {
      const step = steps[Math.min(provider.calls, steps.length - 1)];
      provider.calls += 1;
      if (step === "hang")
        return new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }),
        );
      if (step instanceof ProviderCallError) return Promise.reject(step);
      return Promise.resolve(answer(step));
    },
  };
  return provider;
}

describe("callWithRetries", () => {
  it("returns the first answer", async () => {
    const outcome = await callWithRetries(scripted(["yes"]), request, policy);
    expect(outcome).toMatchObject({ ok: true, attempts: 1, result: { text: "yes" } });
  });

  it("tries a retryable error again, and stops at a non-retryable one", async () => {
    const retried = await callWithRetries(
      scripted([new ProviderCallError("busy", 503, true), "yes"]),
      request,
      policy,
    );
    expect(retried).toMatchObject({ ok: true, attempts: 2 });
    const refused = scripted([new ProviderCallError("bad request", 400, false), "yes"]);
    const outcome = await callWithRetries(refused, request, policy);
    expect(outcome).toMatchObject({ ok: false, attempts: 1, error: { message: "bad request" } });
    expect(refused.calls).toBe(1);
  });

  it("says timeout when an attempt outlives the policy's timeout, and is not `stopped` then", async () => {
    const outcome = await callWithRetries(scripted(["hang"]), request, {
      ...policy,
      maxAttempts: 1,
      timeoutMs: 20,
    });
    expect(outcome).toMatchObject({ ok: false, attempts: 1, error: { message: "timeout after 0.02 s" } });
    expect(!outcome.ok && outcome.stopped).toBeFalsy();
  });

  it("ends a hanging call at once when `stop` aborts, as stopped (neither an answer nor a failure)", async () => {
    const stop = new AbortController();
    const provider = scripted(["hang"]);
    const pending = callWithRetries(provider, request, policy, { stop: stop.signal });
    await new Promise((resolve) => setImmediate(resolve));
    expect(provider.calls).toBe(1);
    stop.abort();
    const outcome = await pending;
    expect(outcome).toMatchObject({ ok: false, stopped: true, attempts: 1 });
    expect(provider.calls).toBe(1);
  });

  it("ends the wait between attempts when `stop` aborts, and makes no call once stopped", async () => {
    const stop = new AbortController();
    const provider = scripted([new ProviderCallError("slow down", 429, true, 300_000), "yes"]);
    const pending = callWithRetries(provider, request, policy, { stop: stop.signal });
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    expect(await pending).toMatchObject({ ok: false, stopped: true, attempts: 1 });
    expect(provider.calls).toBe(1);

    const never = scripted(["yes"]);
    expect(await callWithRetries(never, request, policy, { stop: stop.signal })).toMatchObject({
      ok: false,
      stopped: true,
      attempts: 0,
    });
    expect(never.calls).toBe(0);
  });

  it("stops while the rate limiter holds the attempt back", async () => {
    const stop = new AbortController();
    const provider = scripted(["yes"]);
    const pending = callWithRetries(provider, request, policy, {
      stop: stop.signal,
      beforeAttempt: (signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(new Error("gave up waiting")), { once: true }),
        ),
    });
    stop.abort();
    expect(await pending).toMatchObject({ ok: false, stopped: true, attempts: 0 });
    expect(provider.calls).toBe(0);
  });

  it("does not count a wait for the rate limiter against the attempt's timeout", async () => {
    const provider = scripted(["yes"]);
    const outcome = await callWithRetries(
      provider,
      request,
      { ...policy, maxAttempts: 1, timeoutMs: 20 },
      {
        // The limiter holds the call back for longer than the attempt may take.
        beforeAttempt: (signal) =>
          new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, 120);
            signal.addEventListener("abort", () => {
              clearTimeout(timer);
              reject(new Error("The operation was aborted"));
            });
          }),
      },
    );
    expect(outcome).toMatchObject({ ok: true, attempts: 1 });
    expect(provider.calls).toBe(1);
  });

  it("lets hundreds of calls share a registry's stop signal (no listener limit on it), and stops them all", async () => {
    const registry = new ProviderRegistry({}, null as never);
    // Node warns of a leak past ten listeners unless the limit is lifted; every call in flight listens.
    expect(getMaxListeners(registry.stopSignal)).toBe(Number.POSITIVE_INFINITY);
    const provider = scripted(["hang"]);
    const calls = Array.from({ length: 200 }, () =>
      callWithRetries(provider, request, policy, { stop: registry.stopSignal }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    registry.abortCalls();
    const outcomes = await Promise.all(calls);
    expect(outcomes.every((outcome) => !outcome.ok && outcome.stopped)).toBe(true);
  });

  describe("when the process stops", () => {
    /** A limiter that holds every call back until its signal aborts (then rejects, as the shared limiter does). */
    const heldBack = (signal: AbortSignal) =>
      new Promise<void>((_resolve, reject) =>
        signal.addEventListener("abort", () => reject(new Error("The operation was aborted")), {
          once: true,
        }),
      );

    it("ends a wait for a limit at once, and lets a call in flight finish until its calls are aborted", async () => {
      const registry = new ProviderRegistry({}, null as never);
      const hooks = { stop: registry.stopSignal, stopWaiting: registry.waitSignal };
      const waiting = scripted(["never sent"]);
      const waited = callWithRetries(waiting, request, policy, { ...hooks, beforeAttempt: heldBack });
      let answerInFlight: (text: string) => void = () => {};
      const inFlight: ModelProvider & { calls: number } = {
        name: "slow",
        calls: 0,
        complete() {
          inFlight.calls += 1;
          return new Promise((resolve) => {
            answerInFlight = (text) => resolve(answer(text));
          });
        },
      };
      const flying = callWithRetries(inFlight, request, policy, hooks);
      await new Promise((resolve) => setImmediate(resolve));

      registry.stopWaiting();
      expect(await waited).toMatchObject({ ok: false, stopped: true, attempts: 0 });
      expect(waiting.calls).toBe(0);
      // The call in flight was not aborted: its answer, arriving after the stop began, is kept.
      answerInFlight("kept");
      expect(await flying).toMatchObject({ ok: true, result: { text: "kept" } });
    });

    it("starts no further attempt and ends a backoff at once", async () => {
      const registry = new ProviderRegistry({}, null as never);
      const provider = scripted([new ProviderCallError("busy", 503, true), "yes"]);
      const slowBackoff = { ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000 };
      const started = callWithRetries(provider, request, slowBackoff, {
        stop: registry.stopSignal,
        stopWaiting: registry.waitSignal,
        // The stop begins as the first attempt fails: the wait before the retry could last up to a minute.
        afterAttempt: () => registry.stopWaiting(),
      });
      expect(await started).toMatchObject({ ok: false, stopped: true, attempts: 1 });
      expect(provider.calls).toBe(1);
    });

    it("aborts the calls in flight and the waits alike when its calls are aborted", async () => {
      const registry = new ProviderRegistry({}, null as never);
      const hooks = { stop: registry.stopSignal, stopWaiting: registry.waitSignal };
      const hanging = callWithRetries(scripted(["hang"]), request, policy, hooks);
      const waiting = callWithRetries(scripted(["never sent"]), request, policy, {
        ...hooks,
        beforeAttempt: heldBack,
      });
      await new Promise((resolve) => setImmediate(resolve));
      registry.abortCalls();
      expect(await hanging).toMatchObject({ ok: false, stopped: true, attempts: 1 });
      expect(await waiting).toMatchObject({ ok: false, stopped: true, attempts: 0 });
    });
  });
});

describe("an answer as memicl stores it", () => {
  it("is cut at MAX_ANSWER_CHARS, saying so, however much a provider sent", () => {
    const { MAX_ANSWER_CHARS, storableResult } =
      require("../../../src/llm/model-provider") as typeof import("../../../src/llm/model-provider");
    const huge = "a".repeat(50 * MAX_ANSWER_CHARS);
    const stored = storableResult({
      text: huge,
      finishReason: "stop",
      promptTokens: 1,
      completionTokens: 1,
      cachedTokens: 0,
      reportedModel: null,
      systemFingerprint: null,
    });
    expect(stored.text.length).toBeLessThan(MAX_ANSWER_CHARS + 100);
    expect(stored.text.endsWith(`[memicl: cut at ${MAX_ANSWER_CHARS} of ${huge.length} characters]`)).toBe(
      true,
    );
    expect(storableResult({ ...stored, text: "short" }).text).toBe("short");
  });
});
