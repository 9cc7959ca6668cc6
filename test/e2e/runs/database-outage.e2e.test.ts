import { BACKENDS, withClient } from "../../support/databases";
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

/**
 * The database goes away while answers are being stored: storing fails, and so does everything else. Once the
 * database is back, the run must finish on its own, with exact counts, nothing stored twice, and no answer that
 * arrived meanwhile thrown away and paid for again.
 */
describe.each(BACKENDS)("a database outage mid-run (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let name: string;

  const setConnections = (allowed: boolean) =>
    withClient(api.database.adminUrl, async (client) => {
      await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${allowed}`);
      if (!allowed)
        await client.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
          [name],
        );
    });

  beforeAll(async () => {
    const url = await fake.start();
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({
        slow: { type: "openai", baseUrl: url, maxConcurrency: 8, timeoutSeconds: 20 },
      }),
      MEMICL_IN_PROCESS_WORKERS: "8",
      // Beats every 1.3 s; a worker is dead after 8 s without one (longer than the outage).
      MEMICL_LEASE_SECONDS: "4",
    });
    name = new URL(api.database.url).pathname.slice(1);
  }, 60_000);
  afterAll(async () => {
    if (api) await setConnections(true).catch(() => {});
    await api?.close();
    await fake.stop();
  });

  it("finishes the run after the database comes back, every item once", async () => {
    // Every answer takes 2 s: all eight are in flight when the database goes, and come back while it is gone.
    fake.fallback = { kind: "answer", delayMs: 2_000 };
    const sampleId = await classificationSample(api, "outage", {
      rows: 20,
      instances: 8,
      demonstrations: 0,
      shots: [0],
    });
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "slow",
      model: "m",
    });
    const deadline = Date.now() + 20_000;
    while (fake.requests.length < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests).toHaveLength(8);
    await setConnections(false);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await setConnections(true);
    fake.fallback = { kind: "answer" };

    // Requests fail while the database comes back: they are tried again.
    const done = await waitForRun(api, run.id, finished, 60_000, { tolerateErrors: true });
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 8, failedCount: 0 });
    const completions = await completionsOf(api, run.id);
    expect(completions.filter((completion) => completion.status === "SUCCEEDED")).toHaveLength(8);
    expect(new Set(completions.map((completion) => completion.sampledInstance.id)).size).toBe(8);
    // The eight answers came back while the database was gone: paid for, they are stored once it is back (the
    // items stay held meanwhile), not called and paid again.
    expect(fake.requests).toHaveLength(8);
  }, 120_000);
});
