import { ChildProcess, spawn } from "node:child_process";
import { MEMICL_COMMAND } from "../../support/cli";
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

describe.each(BACKENDS)("memicl worker processes on one database (%s)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let env: Record<string, string>;
  const workers: ChildProcess[] = [];

  const startWorker = () => {
    const child = spawn(process.execPath, [...MEMICL_COMMAND, "worker", "--concurrency", "8"], {
      env: { ...process.env, ...env, LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let errors = "";
    child.stderr?.on("data", (chunk) => {
      errors += chunk;
    });
    child.on("exit", (code, signal) => {
      if (code && code !== 0) console.error(`worker exited with ${code} ${signal}: ${errors}`);
    });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    const url = await fake.start();
    const file = providersFile({
      slow: { type: "openai", baseUrl: url, maxConcurrency: 4, timeoutSeconds: 5 },
      limited: { type: "openai", baseUrl: url, maxConcurrency: 8, requestsPerMinute: 120 },
      shared: { type: "openai", baseUrl: url, maxConcurrency: 3, maxConcurrencyScope: "database" },
    });
    // A killed worker's items come back at once (its pid is gone on this host), whatever the lease; a short
    // lease would let a live worker that a loaded machine stalls for a few seconds lose items it is calling.
    env = { MEMICL_PROVIDERS_FILE: file, MEMICL_LEASE_SECONDS: "10" };
    api = await startTestServer(backend, env);
    env.DATABASE_URL = api.database.url;
  }, 60_000);
  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill("SIGKILL");
    await api?.close();
    await fake.stop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it("finishes a run with exactly one successful completion per item after a worker is killed mid-run", async () => {
    fake.fallback = { kind: "answer", delayMs: 200 };
    const sampleId = await classificationSample(api, "killed", {
      rows: 60,
      instances: 30,
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
    const first = startWorker();
    await waitForRun(api, run.id, (r) => r.doneCount >= 5, 30_000);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const afterKill = await waitForRun(api, run.id, () => true);
    expect(afterKill.doneCount).toBeLessThan(30);
    // What the dead worker held: calls at the provider, and answers not yet stored (a slot frees when the model
    // answers, so these can be more than its 4 slots on a loaded machine).
    const [{ held }] = await api.database.dataSource.query(
      "SELECT count(*)::int AS held FROM completion WHERE run_id = $1 AND status = 'RUNNING'",
      [run.id],
    );

    const second = startWorker();
    const done = await waitForRun(api, run.id, finished, 90_000);
    second.kill("SIGTERM");
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 30, failedCount: 0 });
    const completions = await completionsOf(api, run.id);
    expect(completions.filter((c) => c.status === "SUCCEEDED")).toHaveLength(30);
    expect(new Set(completions.map((c) => c.sampledInstance.id)).size).toBe(30);
    // Calls in flight when the worker died were made again; nothing else was.
    expect(fake.requests.length).toBeGreaterThanOrEqual(30);
    expect(fake.requests.length).toBeLessThanOrEqual(30 + held);
  }, 120_000);

  it("shares one rate limit between two workers and never calls for the same item twice", async () => {
    fake.fallback = { kind: "answer" };
    const sampleId = await classificationSample(api, "limited", {
      rows: 60,
      instances: 16,
      demonstrations: 0,
      shots: [0],
    });
    const a = startWorker();
    const b = startWorker();
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "limited",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished, 60_000);
    a.kill("SIGTERM");
    b.kill("SIGTERM");
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 16 });
    expect(fake.requests).toHaveLength(16);
    expect(new Set(fake.requests.map((request) => request.messages.at(-1)!.content)).size).toBe(16);
    // 120 per minute is 2 per second, with a burst of 2: 16 calls take at least 7 seconds however many workers.
    const span = (fake.requests.at(-1)!.at - fake.requests[0].at) / 1000;
    expect(span).toBeGreaterThanOrEqual(6.5);
    expect((fake.requests.length - 2) / span).toBeLessThanOrEqual(2.2);
  }, 90_000);

  it("holds a database-wide maxConcurrency across two workers, and gives every slot back", async () => {
    fake.fallback = { kind: "answer", delayMs: 300 };
    fake.maxInFlight = 0;
    const sampleId = await classificationSample(api, "shared", {
      rows: 60,
      instances: 18,
      demonstrations: 0,
      shots: [0],
    });
    const a = startWorker();
    const b = startWorker();
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "shared",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished, 60_000);
    a.kill("SIGTERM");
    b.kill("SIGTERM");
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 18 });
    expect(fake.requests).toHaveLength(18);
    // Each process would make 3 calls at once: together, never more than 3.
    expect(fake.maxInFlight).toBeLessThanOrEqual(3);
    expect(fake.maxInFlight).toBeGreaterThanOrEqual(2);
    const slots = await api.database.dataSource.query(
      "SELECT count(*)::int AS held FROM provider_call_slot WHERE provider = 'shared' AND token IS NOT NULL",
    );
    expect(slots[0].held).toBe(0);
  }, 90_000);
});
