import { BACKENDS } from "../../support/databases";
import { Behaviour, FakeOpenAiServer } from "../../support/fake-openai-server";
import { classificationSample, providersFile } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const START_EXPERIMENT = `mutation($input: StartExperimentInput!) {
  startExperiment(input: $input) { experiment { id } } }`;
const EXPERIMENT = `query($id: ID!) { experiment(id: $id) {
  budget { maxCostUsd spentUsd inFlightUsd overrunCalls worstCaseCharges }
  progress { status costUsd waitingReason done expected } } }`;

// A memorization call here: some 60-90 prompt tokens at $100 per million, at most 100 output tokens at $200:
// its worst case is about $0.03, so a $0.20 cap is a handful of calls.
const PRICE = { inputPerMillion: 100, outputPerMillion: 200 };
const CAP = 0.2;

/**
 * A provider's usage cannot switch a budget off: an answer without usage, with negative counts, with more cached
 * tokens than prompt tokens, or with a count too large to store is charged at its worst case (never $0 or less),
 * and the budget pauses at its cap; a provider that ignores max_tokens is charged what it reports, and the
 * budget pauses at once, saying so.
 */
describe.each(BACKENDS)("budgets against a provider's usage (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let sampleId: string;

  beforeAll(async () => {
    const url = await fake.start();
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({
        // A model per test: answers are cached by prompt and model, and a cache hit costs nothing.
        model: {
          type: "openai",
          baseUrl: url,
          maxConcurrency: 2,
          prices: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`m${i}`, PRICE])),
        },
      }),
      MEMICL_IN_PROCESS_WORKERS: "2",
    });
    sampleId = await classificationSample(api, "usage", {
      rows: 120,
      instances: 60,
      demonstrations: 0,
      shots: [0],
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await fake.stop();
  });

  /** Runs a capped experiment against `behaviour` until its budget pauses it; `overrun`: the provider's own report may exceed the cap. */
  let models = 0;
  async function capped(name: string, behaviour: Behaviour, overrun = false) {
    fake.fallback = behaviour;
    const model = `m${models++}`;
    const started = await api.gql(START_EXPERIMENT, {
      input: {
        name,
        sampleIds: [sampleId],
        provider: "model",
        model,
        kinds: ["MEMORIZATION"],
        maxCostUsd: CAP,
      },
    });
    expect(started.errors).toBeUndefined();
    const id = started.data!.startExperiment.experiment.id;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const state = (await api.gql(EXPERIMENT, { id })).data!.experiment;
      if (!overrun) expect(state.progress.costUsd).toBeLessThanOrEqual(CAP + 1e-9);
      if (state.progress.status === "PAUSED_BUDGET" && state.budget.inFlightUsd === 0) return state;
      if (state.progress.status === "SUCCEEDED" || Date.now() > deadline)
        throw new Error(`${name}: the budget did not pause: ${JSON.stringify(state)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it.each<[string, Behaviour]>([
    ["no usage", { kind: "answer", usage: null }],
    [
      "negative usage",
      { kind: "answer", usage: { prompt_tokens: -5, completion_tokens: -7, total_tokens: -12 } },
    ],
    [
      "cached tokens above the prompt's",
      {
        kind: "answer",
        usage: { prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 1e9 } },
      },
    ],
    ["fractional usage", { kind: "answer", usage: { prompt_tokens: 0.5, completion_tokens: 0.25 } }],
  ])(
    "charges %s at its worst case and pauses at the cap",
    async (name, behaviour) => {
      const state = await capped(name, behaviour);
      expect(state.progress.done).toBeGreaterThan(0);
      expect(state.progress.done).toBeLessThan(state.progress.expected);
      // Each call charged about its worst case ($0.02-0.03): a few calls reach the cap.
      expect(state.progress.costUsd).toBeGreaterThan(CAP / 2);
      expect(state.progress.costUsd / state.progress.done).toBeGreaterThan(0.015);
      expect(
        state.budget.worstCaseCharges + (name.startsWith("cached") ? state.progress.done : 0),
      ).toBeGreaterThan(0);
    },
    90_000,
  );

  it("charges a provider that ignores max_tokens what it reports, pauses at once and says so", async () => {
    // 1,000 output tokens where 100 are allowed: $0.20 a call, so the first stored call takes the budget.
    const state = await capped("overrun", { kind: "answer", completionTokens: 1000 }, true);
    expect(state.budget.overrunCalls).toBeGreaterThan(0);
    // Paused by the overrun itself, or by the next call's hold that found the budget spent, whichever came first.
    expect(state.progress.waitingReason).toMatch(/overran max_tokens|budget of \$0\.20 is reached/);
    // One call: until a call keeps to max_tokens, the budget admits one in flight (2 workers x 2 at a time
    // would otherwise have 4 overrunning together), so the cap is exceeded by one call's overrun at most.
    expect(state.progress.done).toBe(1);
    expect(state.progress.costUsd).toBeLessThanOrEqual(CAP + 0.2 + 1e-9);
  }, 90_000);

  it("stores a charge too large for one call once, capped, and never calls again for it", async () => {
    fake.answered = 0;
    const state = await capped(
      "huge",
      { kind: "answer", usage: { prompt_tokens: 2_147_483_647, completion_tokens: 2_147_483_647 } },
      true,
    );
    expect(state.budget.overrunCalls).toBeGreaterThan(0);
    expect(state.progress.done).toBeGreaterThan(0);
    expect(fake.answered).toBe(state.progress.done);
  }, 90_000);
});
