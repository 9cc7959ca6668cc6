import { runCli } from "../../support/cli";
import { BACKENDS } from "../../support/databases";
import { FakeOpenAiServer } from "../../support/fake-openai-server";
import { classificationSample, finished, providersFile, startRun, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/**
 * A provider configured for batches whose server has no Batch API (an OpenAI-compatible server answering its
 * files and batches endpoints with HTTP 400): the batch is given up at the first refusal, the run says why in
 * lastError, and its requests go online (fallback "online") or fail with the provider's message ("fail"),
 * instead of the submission being tried again every few seconds for ever.
 */
describe.each(BACKENDS)("batches a provider refuses (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let sampleId: string;
  let providers: string;

  beforeAll(async () => {
    const url = await fake.start();
    fake.batchApiRefusal = 400;
    providers = providersFile({
      online: { type: "openai", baseUrl: url, batch: { pollMinSeconds: 0.05, pollMaxSeconds: 0.2 } },
      strict: {
        type: "openai",
        baseUrl: url,
        batch: { pollMinSeconds: 0.05, pollMaxSeconds: 0.2, fallback: "fail" },
      },
    });
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providers,
      MEMICL_IN_PROCESS_WORKERS: "2",
      MEMICL_BATCH_TICK_MS: "100",
    });
    sampleId = await classificationSample(api, "refused", {
      rows: 30,
      instances: 6,
      demonstrations: 0,
      shots: [0],
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await fake.stop();
  });

  const batchRun = (provider: string) =>
    startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "FULL_INFORMATION",
      shots: 0,
      provider,
      model: "m",
      cache: false,
      batch: true,
    });

  it("falls back online at the first refusal, saying why with the provider's message", async () => {
    fake.answered = 0;
    const { run } = await batchRun("online");
    const done = await waitForRun(api, run.id, finished, 60_000);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 6, failedCount: 0 });
    expect(fake.answered).toBe(6);
    // The batch says why it was given up (the run said so too while it ran; a run that ends with every item
    // done keeps no error).
    const batches = await api.database.dataSource.query(
      "SELECT state::text AS state, submit_failures, last_error FROM provider_batch WHERE run_id = $1",
      [run.id],
    );
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ state: "COLLECTED", submit_failures: 1 });
    expect(batches[0].last_error).toMatch(
      /^batch: provider "online" did not take a batch \(the provider refused it: .*400.*\); its requests are sent online instead/,
    );
  }, 90_000);

  it("fails the batch's requests with the provider's message where the provider says so", async () => {
    fake.answered = 0;
    const { run } = await batchRun("strict");
    const done = await waitForRun(api, run.id, finished, 60_000);
    expect(done).toMatchObject({ status: "FAILED", doneCount: 0 });
    expect(fake.answered).toBe(0);
    const errors: { error: string }[] = await api.database.dataSource.query(
      "SELECT DISTINCT error FROM completion WHERE run_id = $1 AND status = 'FAILED'",
      [run.id],
    );
    expect(errors.length).toBeGreaterThan(0);
    for (const { error } of errors) expect(error).toMatch(/did not take a batch .*400.*fallback: fail/);
  }, 90_000);

  it("says in providers --check that the Batch API does not answer", async () => {
    const result = await runCli(["providers", "--check", "--model", "m"], {
      MEMICL_PROVIDERS_FILE: providers,
      DATABASE_URL: api.database.url,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /online \(openai\): usable here.*\n {2}check: ok .*\n {2}batch API: FAILED: .*400/,
    );
  }, 60_000);
});
