import { ServeProcess, startServe } from "../../support/cli";
import { BACKENDS } from "../../support/databases";
import { FakeOpenAiServer } from "../../support/fake-openai-server";
import { classificationSample, providersFile, startRun, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const PRICE = { inputPerMillion: 10, outputPerMillion: 20 };
const BATCHES = `query($id: ID!) { run(id: $id) { status doneCount failedCount costUsd batch
  batches { state providerBatchId providerStatus requestCount completedCount failedCount } } }`;

const finished = (run: any) => ["SUCCEEDED", "FAILED", "CANCELLED"].includes(run.status);

/** Batch execution against the stand-in's files and batches endpoints, with `memicl serve` as a real process. */
describe.each(BACKENDS)("batch execution (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let env: Record<string, string>;
  let serve: ServeProcess | null = null;
  let sampleId: string;

  beforeAll(async () => {
    const url = await fake.start();
    env = {
      MEMICL_PROVIDERS_FILE: providersFile({
        batched: {
          type: "openai",
          baseUrl: url,
          prices: { m: PRICE },
          batch: { pollMinSeconds: 0.05, pollMaxSeconds: 0.2, maxRequestsPerFile: 8, attempts: 2 },
        },
        // Room for about three requests' prompts in the provider's batch queue at once, shared by its runs.
        narrow: {
          type: "openai",
          baseUrl: url,
          batch: { pollMinSeconds: 0.05, pollMaxSeconds: 0.2, maxEnqueuedTokens: 250 },
        },
        strict: {
          type: "openai",
          baseUrl: url,
          batch: { pollMinSeconds: 0.05, pollMaxSeconds: 0.2, attempts: 1, fallback: "fail" },
        },
      }),
      MEMICL_IN_PROCESS_WORKERS: "4",
      MEMICL_LEASE_SECONDS: "10",
      MEMICL_BATCH_TICK_MS: "100",
    };
    // The API without workers; `memicl serve` (below) does the work, so a test can kill it.
    api = await startTestServer(backend, { MEMICL_PROVIDERS_FILE: env.MEMICL_PROVIDERS_FILE });
    env.DATABASE_URL = api.database.url;
    sampleId = await classificationSample(api, "batched", {
      rows: 40,
      instances: 12,
      demonstrations: 0,
      shots: [0],
    });
  }, 60_000);
  afterAll(async () => {
    await serve?.stop("SIGKILL");
    await api?.close();
    await fake.stop();
  });
  beforeEach(async () => {
    fake.batches.behaviour = {
      ...fake.batches.behaviour,
      fails: () => false,
      expireAfter: null,
      itemMs: 0,
      createAnswerDelayMs: 0,
    };
    fake.batches.submitted.clear();
    fake.answered = 0;
    fake.fallback = { kind: "answer" };
    if (!serve) serve = await startServe(env);
  });

  const state = async (runId: string) => (await api.gql(BATCHES, { id: runId })).data!.run;
  const memorization = (provider = "batched", extra: Record<string, unknown> = {}) =>
    startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "FULL_INFORMATION",
      shots: 0,
      provider,
      model: "m",
      cache: false,
      ...extra,
    });

  it("sends a run through the Batch API in files within the limit, at batch prices, each request once", async () => {
    const { run } = await memorization();
    expect(run).toMatchObject({ status: "QUEUED" });
    const done = await waitForRun(api, run.id, finished, 60_000);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 12, failedCount: 0 });
    const batched = await state(run.id);
    expect(batched.batch).toBe(true);
    // 12 requests, at most 8 a file: two batches.
    expect(
      batched.batches.map((batch: any) => [batch.state, batch.providerStatus, batch.requestCount]),
    ).toEqual([
      ["COLLECTED", "completed", 8],
      ["COLLECTED", "completed", 4],
    ]);
    expect(fake.answered).toBe(0);
    expect(fake.batches.distinctSubmitted).toBe(12);
    expect(fake.batches.mostSubmissions).toBe(1);
    // Half the online price: the stand-in's usage at $5 and $10 per million.
    const [{ expected }] = await api.database.dataSource.query(
      `SELECT sum(prompt_tokens * 5 + completion_tokens * 10)::float8 / 1e6 AS expected FROM completion WHERE run_id = $1`,
      [run.id],
    );
    expect(Number(done.costUsd)).toBeCloseTo(expected, 6);
  }, 90_000);

  it("sends the requests a batch failed in another batch, and the last failures online", async () => {
    // Each request fails the first time it is in a batch when its id is even; then passes.
    const seen = new Set<string>();
    fake.batches.behaviour.fails = (id) => {
      if (Number(id) % 2 !== 0 || seen.has(id)) return false;
      seen.add(id);
      return true;
    };
    const { run } = await memorization();
    const done = await waitForRun(api, run.id, finished, 60_000);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 12, failedCount: 0 });
    expect(fake.answered).toBe(0);
    expect(fake.batches.mostSubmissions).toBe(2);
    expect(fake.batches.distinctSubmitted).toBe(12);
  }, 90_000);

  it("calls online what an expired batch left, once its batch attempts are spent", async () => {
    fake.batches.behaviour.expireAfter = 3;
    const { run } = await memorization();
    const done = await waitForRun(api, run.id, finished, 60_000);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 12, failedCount: 0 });
    const batched = await state(run.id);
    // The first files (8 + 4 requests) expire after 3 answers each; what is left goes again (in one file or more,
    // as the first ones come back), and what is left after its second batch is called online.
    expect(batched.batches.slice(0, 2).map((batch: any) => batch.providerStatus)).toEqual([
      "expired",
      "expired",
    ]);
    expect(fake.answered).toBeGreaterThan(0);
    expect(
      fake.answered + batched.batches.reduce((sum: number, batch: any) => sum + batch.completedCount, 0),
    ).toBe(12);
    expect(fake.batches.mostSubmissions).toBe(2);
  }, 90_000);

  it("fails what a batch could not answer when the provider says so (fallback fail)", async () => {
    fake.batches.behaviour.fails = (id) => Number(id) % 3 === 0;
    const { run } = await memorization("strict");
    const done = await waitForRun(api, run.id, finished, 60_000);
    expect(done.status).toBe("FAILED");
    expect(done.doneCount + done.failedCount).toBe(12);
    expect(done.failedCount).toBeGreaterThan(0);
    expect(fake.answered).toBe(0);
  }, 90_000);

  it("cancels the batch at the provider when the run is cancelled, storing what it answered", async () => {
    fake.batches.behaviour.itemMs = 300;
    const { run } = await memorization();
    await waitForRun(
      api,
      run.id,
      () =>
        [...fake.batches.batches.values()].some(
          (b) => b.status === "in_progress" && b.request_counts.completed >= 1,
        ),
      30_000,
    );
    const cancelled = await api.gql(
      `mutation($id: ID!) { cancelRun(input: { runId: $id }) { run { status } } }`,
      {
        id: run.id,
      },
    );
    expect(cancelled.data?.cancelRun.run.status).toBe("CANCELLED");
    const deadline = Date.now() + 30_000;
    let batched = await state(run.id);
    while (!batched.batches.every((batch: any) => batch.state === "COLLECTED") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      batched = await state(run.id);
    }
    expect(batched.batches.map((batch: any) => batch.state)).toEqual(batched.batches.map(() => "COLLECTED"));
    expect(batched.batches.some((batch: any) => batch.providerStatus === "cancelled")).toBe(true);
    expect(batched.status).toBe("CANCELLED");
    // The run's counters and its items in one snapshot: the query above reads the run before its batches, so a
    // batch collected between the two reads had stored answers its doneCount did not show yet.
    const [{ waiting, done }] = await api.database.dataSource.query(
      `SELECT count(*) FILTER (WHERE c.status = 'PENDING')::int AS waiting, r.done_count AS done
       FROM run r JOIN completion c ON c.run_id = r.id WHERE r.id = $1 GROUP BY r.id`,
      [run.id],
    );
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(12);
    expect(waiting).toBe(12 - done);
  }, 60_000);

  it("finishes a grid with exact counts after memicl serve is killed between submitting and collecting", async () => {
    fake.batches.behaviour.itemMs = 40;
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { runs { id batch expectedCount } } }`,
      {
        input: {
          name: "batched grid",
          sampleIds: [sampleId],
          provider: "batched",
          model: "m",
          performanceRepeats: 1,
          cache: false,
        },
      },
    );
    expect(started.errors).toBeUndefined();
    const runs: { id: string; batch: boolean; expectedCount: number }[] = started.data!.startExperiment.runs;
    expect(runs.every((run) => run.batch)).toBe(true);
    const total = runs.reduce((sum, run) => sum + run.expectedCount, 0);
    // Killed once some batches are at the provider and before they are all answered.
    const deadline = Date.now() + 30_000;
    while (fake.batches.submitted.size < 16 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect([...fake.batches.batches.values()].some((batch) => batch.status !== "completed")).toBe(true);
    await serve!.stop("SIGKILL");
    serve = await startServe(env);
    for (const run of runs)
      expect(await waitForRun(api, run.id, finished, 60_000)).toMatchObject({
        status: "SUCCEEDED",
        failedCount: 0,
      });
    const [{ stored, answers }] = await api.database.dataSource.query(
      `SELECT count(*)::int AS stored, count(DISTINCT c.id)::int AS answers
       FROM completion c JOIN run r ON r.id = c.run_id WHERE r.id = ANY($1::uuid[]) AND c.status = 'SUCCEEDED'`,
      [runs.map((run) => run.id)],
    );
    expect({ stored, answers }).toEqual({ stored: total, answers: total });
    expect(fake.batches.distinctSubmitted).toBe(total);
    expect(fake.batches.mostSubmissions).toBe(1);
    expect(fake.answered).toBe(0);
  }, 90_000);

  it("finds a batch whose creation it never heard back about, and does not submit it again", async () => {
    // The provider creates the batch, but its answer never reaches memicl: killed while waiting for it.
    fake.batches.behaviour.createAnswerDelayMs = 60_000;
    const { run } = await memorization();
    await waitForRun(api, run.id, () => fake.batches.submitted.size >= 8, 30_000);
    await serve!.stop("SIGKILL");
    fake.batches.behaviour.createAnswerDelayMs = 0;
    const [{ preparing }] = await api.database.dataSource.query(
      "SELECT count(*) FILTER (WHERE state = 'PREPARING')::int AS preparing FROM provider_batch WHERE run_id = $1",
      [run.id],
    );
    expect(preparing).toBeGreaterThanOrEqual(1);
    serve = await startServe(env);
    const done = await waitForRun(api, run.id, finished, 60_000);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 12, failedCount: 0 });
    expect(fake.batches.mostSubmissions).toBe(1);
    expect(fake.batches.distinctSubmitted).toBe(12);
  }, 90_000);

  it("holds a budget over a batch's worst case, at batch prices, and pauses before exceeding it", async () => {
    // Usage the stand-in reports within the worst case memicl holds (its default counts characters, not tokens).
    fake.fallback = { kind: "answer", promptTokens: 10 };
    const { run } = await memorization("batched", { maxCostUsd: 0.002 });
    const paused = await waitForRun(api, run.id, (current) => current.status === "PAUSED_BUDGET", 60_000);
    expect(Number(paused.costUsd)).toBeLessThanOrEqual(0.002);
    expect(paused.doneCount).toBeGreaterThan(0);
    expect(paused.doneCount).toBeLessThan(12);
    expect(paused.waitingReason).toMatch(/^budget: the run's budget of \$0\.002 is reached/);
    expect(fake.answered).toBe(0);
  }, 60_000);

  it("keeps the tokens in a provider's unfinished batches within its queue limit, across runs", async () => {
    fake.batches.behaviour.itemMs = 5;
    const first = (await memorization("narrow")).run;
    const second = (await memorization("narrow", { setting: "ONLY_SEGMENT_PAIRS" })).run;
    let most = 0;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [{ open }] = await api.database.dataSource.query(
        "SELECT coalesce(sum(tokens), 0)::int AS open FROM provider_batch WHERE provider = 'narrow' AND state <> 'COLLECTED'",
      );
      most = Math.max(most, open);
      const states = await Promise.all([first, second].map((run) => state(run.id)));
      if (states.every(finished)) break;
      if (Date.now() > deadline) throw new Error(`not finished: ${JSON.stringify(states)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(250);
    for (const run of [first, second])
      expect(await state(run.id)).toMatchObject({ status: "SUCCEEDED", doneCount: 12 });
    expect(fake.batches.mostSubmissions).toBe(1);
  }, 90_000);

  it("prices the grid's estimate at batch prices for a provider whose default is its Batch API", async () => {
    const estimate = async (extra: Record<string, unknown>) =>
      (
        await api.gql(`query($input: EstimateGridInput!) { estimateGrid(input: $input) { maxCostUsd } }`, {
          input: {
            sampleIds: [sampleId],
            kinds: ["MEMORIZATION"],
            provider: "batched",
            model: "m",
            ...extra,
          },
        })
      ).data!.estimateGrid.maxCostUsd;
    const batched = await estimate({});
    const online = await estimate({ batch: false });
    expect(online).toBeGreaterThan(0);
    expect(batched).toBeCloseTo(online / 2, 9);
  });

  it("refuses batch execution on a provider without a Batch API", async () => {
    const response = await api.gql(
      `mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`,
      { input: { sampleId, kind: "PERFORMANCE", shots: 0, provider: "simulated", model: "m", batch: true } },
    );
    expect(response.errors?.[0].message).toMatch(/^batch: provider "simulated" has no Batch API configured/);
  });
});
