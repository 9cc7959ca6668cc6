import { nearlyThe, SimulatedProvider } from "../../../src/llm/simulated-provider";
import { BACKENDS } from "../../support/databases";
import { FakeOpenAiServer } from "../../support/fake-openai-server";
import {
  classificationSample,
  completionsOf,
  finished,
  providersFile,
  startRun,
  waitForRun,
} from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const SECRET_KEY = "sk-test-4f9c1e7a2b3d5e6f";

const SIMULATION = {
  memorizedAtZeroShot: 0.2,
  memorizedAtManyShots: 0.8,
  halfRiseShots: 10,
  nearExactShare: 0.5,
  accuracyWhenMemorized: 1,
  accuracyOtherwise: 0.5,
  seed: 3,
};

describe.each(BACKENDS)("runs (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let small: string;

  beforeAll(async () => {
    const url = await fake.start();
    const common = {
      type: "openai",
      baseUrl: url,
      timeoutSeconds: 2,
      maxAttempts: 4,
      circuitBreakerFailures: 3,
    };
    const file = providersFile({
      fake: {
        ...common,
        maxConcurrency: 4,
        prices: { "model-x": { inputPerMillion: 1000, outputPerMillion: 2000 } },
      },
      serial: { ...common, maxConcurrency: 1 },
      once: { ...common, maxConcurrency: 4, maxAttempts: 1, timeoutSeconds: 1, circuitBreakerFailures: 100 },
      sturdy: { ...common, maxConcurrency: 4, maxAttempts: 2, circuitBreakerFailures: 100 },
      keyed: {
        ...common,
        maxConcurrency: 4,
        apiKeyEnv: "MEMICL_TEST_SECRET_KEY",
        circuitBreakerFailures: 100,
      },
      sim: { type: "simulated", maxConcurrency: 16, simulation: SIMULATION },
    });
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: file,
      MEMICL_IN_PROCESS_WORKERS: "16",
      MEMICL_LEASE_SECONDS: "5",
      MEMICL_TEST_SECRET_KEY: SECRET_KEY,
    });
    small = await classificationSample(api, "small", {
      rows: 40,
      instances: 6,
      demonstrations: 4,
      shots: [0, 4],
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await fake.stop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.fallback = { kind: "answer" };
  });

  it("runs a grid on the simulated model and recovers its configured memorization rates", async () => {
    const sampleId = await classificationSample(api, "sim", {
      rows: 400,
      instances: 200,
      demonstrations: 40,
      shots: [0, 40],
    });
    const response = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { created experiment { id } runs { id kind setting shots expectedCount } } }`,
      {
        input: {
          name: "sim grid",
          sampleIds: [sampleId],
          provider: "sim",
          model: "memorizer",
          settings: ["ONLY_SEGMENT_PAIRS"],
          performanceRepeats: 1,
        },
      },
    );
    expect(response.errors).toBeUndefined();
    const runs = response.data?.startExperiment.runs;
    expect(runs).toHaveLength(4);
    for (const run of runs) {
      const done = await waitForRun(api, run.id, finished, 60_000);
      expect(done).toMatchObject({
        status: "SUCCEEDED",
        doneCount: 200,
        failedCount: 0,
        reportedModel: "simulated:memorizer",
      });
      const completions = await completionsOf(api, run.id);
      const expected = SimulatedProvider.rates(SIMULATION, run.shots);
      if (run.kind === "MEMORIZATION") {
        const exact = completions.filter((c) => c.output === c.sampledInstance.subsequentSegment).length;
        const near = completions.filter(
          (c) => c.output === nearlyThe(c.sampledInstance.subsequentSegment),
        ).length;
        // 200 instances: the binomial standard deviation is at most 0.035; allow three of them.
        expect(Math.abs((exact + near) / 200 - expected.memorized)).toBeLessThan(0.11);
        expect(near).toBeGreaterThan(0);
      } else {
        const accuracy = completions.filter((c) => c.correct).length / 200;
        const expectedAccuracy = expected.memorized * 1 + (1 - expected.memorized) * 0.5;
        expect(Math.abs(accuracy - expectedAccuracy)).toBeLessThan(0.11);
      }
    }
  }, 120_000);

  it("never has more calls open than the provider's maxConcurrency, while answers are stored outside the slots", async () => {
    // Slots are freed when the model answers (storing goes on beside the next calls); a slot freed twice, or a
    // call started before its slot, would show here as a second call open at once.
    fake.fallback = { kind: "answer", delayMs: 20 };
    fake.maxInFlight = 0;
    const runs = await Promise.all(
      [0, 4].map((shots) =>
        startRun(api, {
          sampleId: small,
          kind: "MEMORIZATION",
          setting: "FULL_INFORMATION",
          shots,
          provider: "serial",
          model: "m-slots",
          cache: false,
        }),
      ),
    );
    for (const { run } of runs)
      expect(await waitForRun(api, run.id, finished)).toMatchObject({ status: "SUCCEEDED", doneCount: 6 });
    expect(fake.requests).toHaveLength(12);
    expect(fake.maxInFlight).toBe(1);
  });

  it("honours Retry-After on 429, retries a 500, and counts every attempt", async () => {
    fake.next({ kind: "status", status: 429, retryAfterSeconds: 1 }, { kind: "status", status: 500 });
    const { run } = await startRun(api, {
      sampleId: small,
      kind: "MEMORIZATION",
      setting: "FULL_INFORMATION",
      shots: 0,
      provider: "serial",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 6, failedCount: 0 });
    const completions = await completionsOf(api, run.id);
    expect(completions.reduce((sum, c) => sum + c.attempts, 0)).toBe(8);
    expect(fake.requests).toHaveLength(8);
    expect(fake.requests[1].at - fake.requests[0].at).toBeGreaterThanOrEqual(950);
    expect(
      completions.every(
        (c) => c.output === c.sampledInstance.initialSegment.split("").reverse().join("") || c.output,
      ),
    ).toBe(true);
  });

  it("does not retry a 400: the item fails as data on its completion, and can be retried later", async () => {
    fake.next({
      kind: "status",
      status: 400,
      body: JSON.stringify({ error: { message: "bad request: context too long" } }),
    });
    const { run } = await startRun(api, {
      sampleId: small,
      kind: "MEMORIZATION",
      setting: "FULL_INFORMATION",
      shots: 4,
      provider: "serial",
      model: "m",
    });
    const failed = await waitForRun(api, run.id, finished);
    expect(failed).toMatchObject({
      status: "FAILED",
      doneCount: 5,
      failedCount: 1,
      lastError: expect.stringMatching(/HTTP 400: bad request/),
    });
    const completions = await completionsOf(api, run.id);
    const bad = completions.find((c) => c.status === "FAILED");
    expect(bad).toMatchObject({ attempts: 1, error: expect.stringMatching(/HTTP 400/) });
    expect(fake.requests).toHaveLength(6);

    const retried = await api.gql(
      `mutation($input: RunIdInput!) { retryFailedCompletions(input: $input) { affectedCount run { status } } }`,
      {
        input: { runId: run.id },
      },
    );
    expect(retried.data?.retryFailedCompletions.affectedCount).toBe(1);
    const fixed = await waitForRun(api, run.id, (r) => r.status === "SUCCEEDED");
    expect(fixed).toMatchObject({ doneCount: 6, failedCount: 0 });
    expect(fake.requests).toHaveLength(7);
  });

  it("times out a hanging call and retries a malformed answer", async () => {
    fake.next({ kind: "hang" }, { kind: "malformed" });
    const { run } = await startRun(api, {
      sampleId: small,
      kind: "PERFORMANCE",
      shots: 0,
      repeats: 1,
      provider: "serial",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 6 });
    expect(fake.requests).toHaveLength(8);
    const completions = await completionsOf(api, run.id);
    // One provider slot: the same item met the hang, then the malformed body, then an answer.
    expect(completions.map((c) => c.attempts).sort()).toEqual([1, 1, 1, 1, 1, 3]);
  });

  it("fails the run after three items fail in a row, and resumes exactly what is missing", async () => {
    fake.fallback = { kind: "status", status: 503 };
    const { run } = await startRun(api, {
      sampleId: small,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 4,
      provider: "serial",
      model: "m",
    });
    const broken = await waitForRun(api, run.id, finished, 60_000);
    expect(broken).toMatchObject({
      status: "FAILED",
      failedCount: 3,
      lastError: expect.stringMatching(/^circuit breaker: 3 items failed in a row/),
    });
    fake.fallback = { kind: "answer" };
    // One mutation brings the run back: the failed items and the ones the breaker kept from being tried.
    const retried = await api.gql(
      `mutation($input: RunIdInput!) { retryFailedCompletions(input: $input) { affectedCount } }`,
      { input: { runId: run.id } },
    );
    // Every item but one a worker may still hold (claimed with its batch, its call still to come) is missing.
    expect(retried.data?.retryFailedCompletions.affectedCount).toBeGreaterThanOrEqual(5);
    let after = await waitForRun(api, run.id, finished, 60_000);
    if (after.status === "FAILED") {
      // That held item's call met the 503s before they stopped (its attempts ran out on a loaded machine) and
      // failed it after the retry: one more retry takes it, and only it.
      expect(after).toMatchObject({ doneCount: 5, failedCount: 1 });
      const again = await api.gql(
        `mutation($input: RunIdInput!) { retryFailedCompletions(input: $input) { affectedCount } }`,
        { input: { runId: run.id } },
      );
      expect(again.data?.retryFailedCompletions.affectedCount).toBe(1);
      after = await waitForRun(api, run.id, finished, 60_000);
    }
    const done = after;
    expect(done).toMatchObject({ doneCount: 6, failedCount: 0 });
    const completions = await completionsOf(api, run.id);
    expect(completions.filter((c) => c.status === "SUCCEEDED")).toHaveLength(6);
  }, 90_000);

  it("records a timeout as such", async () => {
    fake.fallback = { kind: "hang" };
    const { run } = await startRun(api, {
      sampleId: small,
      kind: "PERFORMANCE",
      shots: 0,
      repeats: 1,
      provider: "once",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished, 60_000);
    const completions = await completionsOf(api, run.id);
    expect(completions[0].error).toBe("timeout after 1 s");
    expect(done.lastError).toMatch(/timeout after 1 s/);
  }, 90_000);

  it("stores answers holding NUL characters (which PostgreSQL text cannot hold) instead of stalling", async () => {
    let calls = 0;
    const original = fake.answer;
    fake.answer = () => (++calls % 3 === 0 ? "bad\u0000answer" : "fine answer");
    try {
      const { run } = await startRun(api, {
        sampleId: small,
        kind: "MEMORIZATION",
        setting: "ONLY_SEGMENT_PAIRS",
        shots: 0,
        provider: "fake",
        model: "m",
      });
      const done = await waitForRun(api, run.id, finished, 60_000);
      expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 6, failedCount: 0 });
      const outputs = (await completionsOf(api, run.id)).map((c) => c.output);
      expect(outputs).toContain("bad\uFFFDanswer");
    } finally {
      fake.answer = original;
    }
  });

  it("never orphans an item whose answer cannot be stored: it is retried, then failed with the reason", async () => {
    fake.fallback = { kind: "answer", finishReason: "x".repeat(80) };
    const { run } = await startRun(api, {
      sampleId: small,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "sturdy",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished, 90_000);
    expect(done).toMatchObject({ status: "FAILED", doneCount: 0, failedCount: 6 });
    const completions = await completionsOf(api, run.id);
    for (const completion of completions) {
      expect(completion.status).toBe("FAILED");
      expect(completion.error).toMatch(/^memicl could not store this item: .*too long/);
      expect(completion.attempts).toBe(2);
    }
  }, 120_000);

  it("scrubs a key the provider echoes from stored errors and responses", async () => {
    fake.fallback = { kind: "status", status: 400, echoAuthorization: true };
    const { run } = await startRun(api, {
      sampleId: small,
      kind: "PERFORMANCE",
      shots: 0,
      repeats: 1,
      provider: "keyed",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished, 60_000);
    const completions = await completionsOf(api, run.id);
    const served = JSON.stringify({ done, completions });
    expect(served).toContain("[redacted]");
    expect(served).not.toContain(SECRET_KEY);
    const stored = await api.database.dataSource.query(
      "SELECT count(*)::int AS n FROM completion WHERE error LIKE '%' || $1 || '%'",
      [SECRET_KEY],
    );
    expect(stored[0].n).toBe(0);
  });

  it("stores no copy of a key the provider echoes in its answer, model name or fingerprint, in any form", async () => {
    const forms = [
      SECRET_KEY,
      encodeURIComponent(`${SECRET_KEY}/x`).replace("%2Fx", ""),
      Buffer.from(`user:${SECRET_KEY}`).toString("base64"),
      Buffer.from(SECRET_KEY).toString("base64url"),
    ];
    fake.fallback = {
      kind: "answer",
      content: `SECOND PIECE: ${forms.join(" ")}`,
      model: `m-${SECRET_KEY}`,
      systemFingerprint: Buffer.from(`fp:${SECRET_KEY}`).toString("base64"),
    };
    const { run } = await startRun(api, {
      sampleId: small,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "keyed",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished, 60_000);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 6 });
    const completions = await completionsOf(api, run.id);
    const served = JSON.stringify({ done, completions });
    expect(served).toContain("[redacted]");
    // Every table a dump holds, as text: completions, runs, the response cache, judgments.
    const dump: string = (
      await api.database.dataSource.query(
        `SELECT (SELECT json_agg(c)::text FROM completion c) || (SELECT json_agg(r)::text FROM run r) ||
                (SELECT coalesce(json_agg(x), '[]')::text FROM response_cache x) ||
                (SELECT coalesce(json_agg(j), '[]')::text FROM judgment j) AS text`,
      )
    )[0].text;
    for (const form of forms) {
      expect(served).not.toContain(form);
      expect(dump).not.toContain(form);
    }
  });

  it("stores an answer PostgreSQL would refuse as is: a lone surrogate, a token count beyond int", async () => {
    fake.fallback = {
      kind: "answer",
      content: "SECOND PIECE: broken \uD800 text",
      promptTokens: 3_000_000_000,
    };
    const { run } = await startRun(api, {
      sampleId: small,
      kind: "MEMORIZATION",
      setting: "SEGMENT_PAIRS_AND_LABELS",
      shots: 0,
      provider: "sturdy",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished, 60_000);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 6, failedCount: 0 });
    const completions = await completionsOf(api, run.id);
    expect(completions.every((completion) => completion.attempts === 1)).toBe(true);
    expect(completions[0].output).toBe("SECOND PIECE: broken \uFFFD text");
    // One call per item: nothing was paid twice for an answer that could not be stored.
    expect(fake.requests.filter((request) => request.model === "m")).toHaveLength(6);
  });

  it("refuses a NUL in the judge's model or provider as bad input", async () => {
    for (const judge of [
      { kind: "LLM", provider: "fake", model: "m\u0000" },
      { kind: "LLM", provider: "fa\u0000ke", model: "m" },
    ]) {
      const response = await api.gql(
        `mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`,
        {
          input: {
            sampleId: small,
            kind: "MEMORIZATION",
            setting: "FULL_INFORMATION",
            shots: 0,
            provider: "sim",
            model: "m",
            judge,
          },
        },
      );
      expect(response.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/must not contain a NUL character/),
        extensions: { code: "BAD_USER_INPUT" },
      });
    }
  });

  it("starts a run once per idempotency key", async () => {
    const input = {
      sampleId: small,
      kind: "MEMORIZATION",
      setting: "FULL_INFORMATION",
      shots: 0,
      provider: "fake",
      model: "model-x",
      idempotencyKey: "key-1",
    };
    const [first, second] = await Promise.all([startRun(api, input), startRun(api, input)]);
    expect(second.run.id).toBe(first.run.id);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    const done = await waitForRun(api, first.run.id, finished);
    expect(done).toMatchObject({
      status: "SUCCEEDED",
      expectedCount: 6,
      doneCount: 6,
      reportedModel: "model-x-2026-01-01",
    });
    expect(Number(done.costUsd)).toBeGreaterThan(0);
    const count = await api.gql(`{ runCount }`);
    expect(fake.requests).toHaveLength(6);
    expect(count.errors).toBeUndefined();
  });

  it("stops new calls on cancel and resumes exactly what is missing, calling each item once", async () => {
    fake.fallback = { kind: "answer", delayMs: 250 };
    const sampleId = await classificationSample(api, "slow", {
      rows: 40,
      instances: 12,
      demonstrations: 0,
      shots: [0],
    });
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "serial",
      model: "m",
    });
    await waitForRun(api, run.id, (r) => r.doneCount >= 2);
    const cancelled = await api.gql(
      `mutation($input: RunIdInput!) { cancelRun(input: $input) { run { status } } }`,
      { input: { runId: run.id } },
    );
    expect(cancelled.data?.cancelRun.run.status).toBe("CANCELLED");
    await new Promise((resolve) => setTimeout(resolve, 800));
    const callsAfterCancel = fake.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(fake.requests.length).toBe(callsAfterCancel);
    expect(callsAfterCancel).toBeLessThan(12);

    const resumed = await api.gql(
      `mutation($input: RunIdInput!) { resumeRun(input: $input) { affectedCount run { status } } }`,
      { input: { runId: run.id } },
    );
    expect(resumed.data?.resumeRun.affectedCount).toBe(12 - callsAfterCancel);
    await waitForRun(api, run.id, (r) => r.status === "SUCCEEDED", 30_000);
    const completions = await completionsOf(api, run.id);
    expect(completions.filter((c) => c.status === "SUCCEEDED")).toHaveLength(12);
    expect(new Set(completions.map((c) => c.sampledInstance.id)).size).toBe(12);
    expect(fake.requests).toHaveLength(12);
  }, 60_000);

  it("makes repeats real calls, and answers an identical second run from the cache", async () => {
    const input = {
      sampleId: small,
      kind: "PERFORMANCE",
      shots: 4,
      repeats: 2,
      provider: "fake",
      model: "model-x",
    };
    const first = await startRun(api, input);
    expect(await waitForRun(api, first.run.id, finished)).toMatchObject({
      status: "SUCCEEDED",
      doneCount: 12,
      cacheHitCount: 0,
    });
    expect(fake.requests).toHaveLength(12);
    const second = await startRun(api, input);
    expect(await waitForRun(api, second.run.id, finished)).toMatchObject({
      status: "SUCCEEDED",
      doneCount: 12,
      cacheHitCount: 12,
    });
    expect(fake.requests).toHaveLength(12);
    const third = await startRun(api, { ...input, cache: false });
    expect(await waitForRun(api, third.run.id, finished)).toMatchObject({
      status: "SUCCEEDED",
      cacheHitCount: 0,
    });
    expect(fake.requests).toHaveLength(24);
    // Two identical runs at once: their lookups share statements (the same key asked twice), each gets every answer.
    const [fourth, fifth] = await Promise.all([startRun(api, input), startRun(api, input)]);
    for (const run of [fourth, fifth])
      expect(await waitForRun(api, run.run.id, finished)).toMatchObject({
        status: "SUCCEEDED",
        doneCount: 12,
        cacheHitCount: 12,
      });
    expect(fake.requests).toHaveLength(24);
  });

  it("refuses unknown providers with BAD_USER_INPUT and never echoes keys or URLs", async () => {
    const response = await api.gql(
      `mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`,
      {
        input: { sampleId: small, kind: "PERFORMANCE", shots: 0, provider: "nope", model: "m" },
      },
    );
    expect(response.errors?.[0]).toMatchObject({
      extensions: { code: "BAD_USER_INPUT" },
      message: expect.stringMatching(/configured: fake, keyed, once, serial, sim, simulated, sturdy/),
    });
    expect(JSON.stringify(response)).not.toContain("127.0.0.1");
  });
});
