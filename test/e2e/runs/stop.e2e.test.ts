import { BACKENDS } from "../../support/databases";
import { FakeOpenAiServer } from "../../support/fake-openai-server";
import { classificationSample, providersFile, startRun, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

describe.each(BACKENDS)("stopping a server while its calls hang (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let first: TestServer | undefined;
  let second: TestServer | undefined;

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await fake.stop();
  });

  it("aborts the calls after the grace period, loses nothing, and the next server finishes the run", async () => {
    fake.fallback = { kind: "hang" };
    const env = {
      // A provider that would hold every call for ten minutes: stopping must not wait for it.
      MEMICL_PROVIDERS_FILE: providersFile({
        slow: { type: "openai", baseUrl: await fake.start(), maxConcurrency: 2, timeoutSeconds: 600 },
      }),
      MEMICL_IN_PROCESS_WORKERS: "2",
    };
    first = await startTestServer(backend, env);
    const sampleId = await classificationSample(first, "stopped", {
      rows: 20,
      instances: 4,
      demonstrations: 2,
      shots: [0],
    });
    const { run } = await startRun(first, {
      sampleId,
      kind: "PERFORMANCE",
      shots: 0,
      repeats: 1,
      provider: "slow",
      model: "m",
    });
    while (fake.inFlight < 2) await new Promise((resolve) => setTimeout(resolve, 50));

    await first.server.close();
    // The hanging calls were aborted, not failed: every item is waiting again, none holds a lease.
    const items: { status: string; error: string | null; attempts: number; lease_token: string | null }[] =
      await first.database.dataSource.query(
        "SELECT status, error, attempts, lease_token FROM completion WHERE run_id = $1",
        [run.id],
      );
    expect(items).toEqual(Array(4).fill({ status: "PENDING", error: null, attempts: 0, lease_token: null }));

    fake.fallback = { kind: "answer" };
    second = await startTestServer(backend, env, first.database);
    const done = await waitForRun(second, run.id, (r) => r.status === "SUCCEEDED", 60_000);
    expect(done).toMatchObject({ doneCount: 4, failedCount: 0 });
  }, 90_000);
});
