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

const EXPERIMENT = `query($id: ID!) { experiment(id: $id) { progress { status lastError waitingReason } } }`;

/**
 * Waiting for a provider's rate limit is not an attempt: an item waits as long as the limit asks, is called
 * once, and its run says what it waits for meanwhile. A prompt the limit can never admit fails without a call.
 */
describe.each(BACKENDS)("rate limits (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;

  beforeAll(async () => {
    const url = await fake.start();
    const file = providersFile({
      // One request a second, and an attempt may take one second: most items wait far longer than that.
      tight: {
        type: "openai",
        baseUrl: url,
        maxConcurrency: 8,
        requestsPerMinute: 60,
        timeoutSeconds: 1,
        maxAttempts: 1,
        circuitBreakerFailures: 50,
      },
      // 6,000 tokens a minute: a burst of 1,000 tokens, then 100 a second; an attempt may take one second.
      tighttpm: {
        type: "openai",
        baseUrl: url,
        maxConcurrency: 8,
        tokensPerMinute: 6000,
        timeoutSeconds: 1,
        maxAttempts: 1,
        circuitBreakerFailures: 50,
      },
      // No prompt of the sample fits in 40 tokens a minute.
      tiny: { type: "openai", baseUrl: url, maxConcurrency: 2, tokensPerMinute: 40, maxAttempts: 3 },
    });
    api = await startTestServer(backend, { MEMICL_PROVIDERS_FILE: file, MEMICL_IN_PROCESS_WORKERS: "8" });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await fake.stop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it("calls every item once however long it waits for the limit, and says what the run waits for", async () => {
    const sampleId = await classificationSample(api, "tightrpm", {
      rows: 30,
      instances: 8,
      demonstrations: 0,
      shots: [0],
    });
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "tight",
          sampleIds: [sampleId],
          provider: "tight",
          model: "m",
          kinds: ["MEMORIZATION"],
          settings: ["ONLY_SEGMENT_PAIRS"],
        },
      },
    );
    expect(started.errors).toBeUndefined();
    const experimentId = started.data!.startExperiment.experiment.id;
    const runId = started.data!.startExperiment.runs[0].id;
    const reasons = new Set<string>();
    const experimentReasons = new Set<string>();
    const run = await waitForRun(api, runId, finished, 60_000, {
      onEach: async (current) => {
        if (current.waitingReason) reasons.add(current.waitingReason);
        const progress = (await api.gql(EXPERIMENT, { id: experimentId })).data!.experiment.progress;
        if (progress.waitingReason) experimentReasons.add(progress.waitingReason);
      },
    });
    expect(run).toMatchObject({ status: "SUCCEEDED", doneCount: 8, failedCount: 0, lastError: null });
    expect(fake.requests).toHaveLength(8);
    const completions = await completionsOf(api, runId);
    expect(completions.map((completion) => completion.attempts)).toEqual(Array(8).fill(1));
    expect(completions.every((completion) => completion.error === null)).toBe(true);
    // While it waited, the run said for which limit, and until about when.
    expect(
      [...reasons].some((reason) =>
        /requests-per-minute limit of provider "tight" \(60 per minute\)/.test(reason),
      ),
    ).toBe(true);
    expect(
      [...reasons].every((reason) => /next slot about \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/.test(reason)),
    ).toBe(true);
    expect(experimentReasons.size).toBeGreaterThan(0);
    const progress = (await api.gql(EXPERIMENT, { id: experimentId })).data!.experiment.progress;
    expect(progress).toMatchObject({ status: "SUCCEEDED", lastError: null });
  }, 90_000);

  it("waits for a tokens-per-minute limit without failing or repeating a call", async () => {
    const sampleId = await classificationSample(api, "tighttpm", {
      rows: 30,
      instances: 10,
      demonstrations: 0,
      shots: [0],
    });
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "tighttpm",
      model: "m",
    });
    let waited = false;
    const done = await waitForRun(api, run.id, finished, 60_000, {
      onEach: (current) => {
        if (
          /tokens-per-minute limit of provider "tighttpm" \(6000 per minute\)/.test(
            current.waitingReason ?? "",
          )
        )
          waited = true;
      },
    });
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 10, failedCount: 0, lastError: null });
    expect(fake.requests).toHaveLength(10);
    expect(waited).toBe(true);
    const completions = await completionsOf(api, run.id);
    expect(completions.map((completion) => completion.attempts)).toEqual(Array(10).fill(1));
  }, 90_000);

  it("fails a prompt larger than the tokens-per-minute limit at once, without a call, and the estimate warns of it", async () => {
    const sampleId = await classificationSample(api, "tinytpm", {
      rows: 30,
      instances: 3,
      demonstrations: 4,
      shots: [0, 4],
    });
    const estimate = await api.gql(
      `query($input: EstimateGridInput!) { estimateGrid(input: $input) { warnings rows { shots largestCallTokens } } }`,
      {
        input: {
          sampleIds: [sampleId],
          kinds: ["MEMORIZATION"],
          settings: ["ONLY_SEGMENT_PAIRS"],
          provider: "tiny",
        },
      },
    );
    expect(estimate.errors).toBeUndefined();
    expect(estimate.data!.estimateGrid.warnings).toHaveLength(2);
    expect(estimate.data!.estimateGrid.warnings[0]).toMatch(/tokensPerMinute 40/);
    const withoutProvider = await api.gql(
      `query($input: EstimateGridInput!) { estimateGrid(input: $input) { warnings } }`,
      { input: { sampleIds: [sampleId], kinds: ["MEMORIZATION"], settings: ["ONLY_SEGMENT_PAIRS"] } },
    );
    expect(withoutProvider.data!.estimateGrid.warnings).toEqual([]);

    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 4,
      provider: "tiny",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished, 30_000);
    expect(done).toMatchObject({ status: "FAILED", failedCount: 3, doneCount: 0 });
    expect(done.lastError).toMatch(/needs about \d+ tokens .* \(tokensPerMinute 40\): it was not sent/);
    const completions = await completionsOf(api, run.id);
    expect(completions.map((completion) => completion.attempts)).toEqual([0, 0, 0]);
    expect(fake.requests).toHaveLength(0);
  }, 60_000);
});
