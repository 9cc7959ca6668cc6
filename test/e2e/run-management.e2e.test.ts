import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../support/cli";
import { BACKENDS } from "../support/databases";
import { FakeOpenAiServer } from "../support/fake-openai-server";
import { classificationSample, finished, providersFile, startRun, waitForRun } from "../support/runs";
import { startTestServer, TestServer } from "../support/server";

const START = `mutation($input: StartRunInput!) { startRun(input: $input) { created warnings run { id status waitingReason } } }`;

describe.each(BACKENDS)("run management (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let sampleId: string;
  let file: string;

  beforeAll(async () => {
    const url = await fake.start();
    file = providersFile({
      // Its key is not set in the server's environment: the server starts anyway, and cannot call it.
      remote: { type: "openai", baseUrl: url, apiKeyEnv: "MEMICL_TEST_UNSET_KEY" },
      judge: { type: "openai", baseUrl: url, maxConcurrency: 4 },
      sim: { type: "simulated", maxConcurrency: 8, simulation: { memorizedAtZeroShot: 0.5 } },
      trickle: { type: "simulated", maxConcurrency: 2, requestsPerMinute: 6 },
    });
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: file,
      MEMICL_IN_PROCESS_WORKERS: "8",
      MEMICL_LEASE_SECONDS: "3",
    });
    sampleId = await classificationSample(api, "managed", {
      rows: 40,
      instances: 10,
      demonstrations: 0,
      shots: [0],
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await fake.stop();
  });

  it("lists the live workers and the providers, with why one cannot be called here", async () => {
    const response = await api.gql(
      `{ workers { role pid concurrency providers } providers { name usableHere unusableReason liveWorkers } }`,
    );
    expect(response.data?.workers).toEqual([
      {
        role: "serve",
        pid: process.pid,
        concurrency: 8,
        providers: ["judge", "sim", "simulated", "trickle"],
      },
    ]);
    const remote = response.data?.providers.find((provider: any) => provider.name === "remote");
    expect(remote).toEqual({
      name: "remote",
      usableHere: false,
      unusableReason: "its API key variable MEMICL_TEST_UNSET_KEY is not set in this process",
      liveWorkers: 0,
    });
    expect(JSON.stringify(response)).not.toContain("127.0.0.1");
  });

  it("refuses a run whose provider's key is set nowhere, naming the variable", async () => {
    const response = await api.gql(START, {
      input: {
        sampleId,
        kind: "MEMORIZATION",
        setting: "ONLY_SEGMENT_PAIRS",
        shots: 0,
        provider: "remote",
        model: "m",
      },
    });
    expect(response.errors?.[0].message).toMatch(
      /^provider "remote" cannot be called: its API key variable MEMICL_TEST_UNSET_KEY is not set in this process, and no live worker on this database can call it/,
    );
    expect(response.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(fake.requests).toHaveLength(0);
  });

  it("queues a run for a provider a live worker elsewhere can call, though this process has no key", async () => {
    // A worker of another process (a row with a fresh beat) that has the key: the run is its to call.
    const [{ id: workerId }] = await api.database.dataSource.query(
      `INSERT INTO worker (id, host, pid, role, concurrency, providers, code_version)
       VALUES (gen_random_uuid(), 'elsewhere', 1, 'worker', 1, ARRAY['remote'], 'test') RETURNING id`,
    );
    const response = await api.gql(START, {
      input: {
        sampleId,
        kind: "MEMORIZATION",
        setting: "ONLY_SEGMENT_PAIRS",
        shots: 0,
        provider: "remote",
        model: "m",
      },
    });
    expect(response.errors).toBeUndefined();
    await api.gql(`mutation($input: RunIdInput!) { cancelRun(input: $input) { affectedCount } }`, {
      input: { runId: response.data!.startRun.run.id },
    });
    await api.database.dataSource.query("DELETE FROM worker WHERE id = $1", [workerId]);
  });

  it("checks a provider with a model it serves: a priced one, else the first its endpoint lists", async () => {
    fake.requests.length = 0;
    const result = await runCli(["providers", "--check"], {
      MEMICL_PROVIDERS_FILE: file,
      DATABASE_URL: api.database.url,
    });
    expect(result.stdout).toMatch(/^database: /);
    expect(result.stdout).toMatch(/judge \(openai\): usable here.*\n {2}check: ok in \d+ ms/);
    expect(fake.requests.map((request) => request.model)).toEqual(["stand-in-model"]);
    fake.models = [];
    const none = await runCli(["providers", "--check"], {
      MEMICL_PROVIDERS_FILE: file,
      DATABASE_URL: api.database.url,
    });
    fake.models = ["stand-in-model"];
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(
      /judge \(openai\).*\n {2}check: FAILED: no model to check with: .*pass --model/,
    );
  });

  it("says when a run waits for its provider's rate limit", async () => {
    const response = await api.gql(START, {
      input: {
        sampleId,
        kind: "MEMORIZATION",
        setting: "ONLY_SEGMENT_PAIRS",
        shots: 0,
        provider: "trickle",
        model: "m",
      },
    });
    const runId = response.data!.startRun.run.id;
    const waiting = await waitForRun(api, runId, (run) => run.waitingReason !== null, 30_000);
    expect(waiting.waitingReason).toMatch(
      /^waiting for the requests-per-minute limit of provider "trickle" \(6 per minute\); next slot about \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    await api.gql(`mutation($input: RunIdInput!) { cancelRun(input: $input) { affectedCount } }`, {
      input: { runId },
    });
  }, 60_000);

  it("keeps a readable verdict when an LLM judge answers nonsense, and lists those completions for review", async () => {
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "sim",
      model: "m",
    });
    const done = await waitForRun(api, run.id, finished);
    expect(done.status).toBe("SUCCEEDED");
    const history = async () =>
      (
        await api.gql(
          `query($id: ID!) { run(id: $id) { completions(first: 50) { edges { node { id effectiveJudgment { verdict judgeKind } judgments { verdict judgeKind } } } } } }`,
          { id: run.id },
        )
      ).data!.run.completions.edges.map((edge: any) => edge.node);
    const verdicts = async () =>
      Object.fromEntries((await history()).map((node: any) => [node.id, node.effectiveJudgment.verdict]));
    const before = await verdicts();
    fake.fallback = { kind: "answer", content: "I would rather not say." };
    await api.gql(`mutation($input: RejudgeInput!) { rejudge(input: $input) { queuedCount } }`, {
      input: { scope: { runId: run.id }, judge: { kind: "LLM", provider: "judge", model: "j" } },
    });
    for (let tries = 0; tries < 100; tries++) {
      if ((await history()).every((node: any) => node.judgments.length === 2)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const nodes = await history();
    for (const node of nodes) {
      expect(node.judgments.map((judgment: any) => judgment.verdict)).toContain("UNPARSEABLE");
      expect(node.effectiveJudgment.judgeKind).toBe("HEURISTIC");
      expect(node.effectiveJudgment.verdict).not.toBe("UNPARSEABLE");
    }
    expect(await verdicts()).toEqual(before);
    const review = await api.gql(
      `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: UNREADABLE, first: 50) { edges { node { id } } } }`,
      { scope: { runId: run.id } },
    );
    expect(review.data?.completionsToReview.edges).toHaveLength(10);
    fake.fallback = { kind: "answer" };
  }, 60_000);
});

describe("run management from the command line", () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-manage-"));
    fs.chmodSync(dir, 0o755);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("starts every command when a provider's key is missing, and says which provider cannot be called", async () => {
    const file = providersFile({
      openai: { type: "openai", apiKeyEnv: "MEMICL_TEST_UNSET_OPENAI" },
      azure: {
        type: "azure",
        endpoint: "https://example.invalid",
        apiVersion: "2024-10-21",
        apiKeyEnv: "MEMICL_TEST_UNSET_AZURE",
      },
    });
    const env = { MEMICL_PROVIDERS_FILE: file, MEMICL_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" };
    const migrated = await runCli(["migrate"], env);
    expect(migrated.code).toBe(0);
    const providers = await runCli(["providers", "--check"], env);
    expect(providers.code).toBe(0);
    expect(providers.stdout).toContain(
      "openai (openai): NOT usable here: its API key variable MEMICL_TEST_UNSET_OPENAI is not set in this process",
    );
    expect(providers.stdout).toMatch(/simulated \(simulated\): usable here.*\n {2}check: ok/);
    const workers = await runCli(["workers"], env);
    expect(workers.stdout).toMatch(/no live workers/);
  });

  it("says, when it queues an experiment, that nothing is running on the database to work on it", async () => {
    const env = { MEMICL_DATA_DIR: path.join(dir, "alone"), DATABASE_URL: "" };
    const file = path.join(dir, "rows.jsonl");
    fs.writeFileSync(
      file,
      `${Array.from({ length: 20 }, (_, i) => JSON.stringify({ text: `row ${i} has seven words in it`, label: `l${i % 2}` })).join("\n")}\n`,
    );
    expect((await runCli(["import", file, "--name", "alone"], env)).code).toBe(0);
    const sampled = await runCli(
      ["sample", "--dataset", "alone", "--instances", "4", "--demonstrations", "0", "--shots", "0"],
      env,
    );
    const sampleId = /sample ([0-9a-f-]{36})/.exec(sampled.stdout)![1];
    const queued = await runCli(
      ["experiment", "--sample", sampleId, "--provider", "simulated", "--model", "m"],
      env,
    );
    expect(queued.code).toBe(0);
    expect(queued.stdout).toMatch(/^queued experiment [0-9a-f-]{36}: 5 runs, 28 completions$/m);
    expect(queued.stdout).toMatch(
      /^warning: no memicl serve or memicl worker is running on this database: nothing will work on it until one starts$/m,
    );
  });

  it("refuses to report an agreement when the judge gave no readable verdict", async () => {
    const fake = new FakeOpenAiServer();
    const url = await fake.start();
    fake.fallback = { kind: "answer", content: "banana" };
    const gold = path.join(dir, "gold.csv");
    fs.writeFileSync(gold, "reference,candidate,human\nA b c.,A b c.,exact\nA b c.,X y z.,inexact\n");
    try {
      const result = await runCli(["judge-agreement", gold, "--judge", "llm:nonsense/m"], {
        MEMICL_PROVIDERS_FILE: providersFile({ nonsense: { type: "openai", baseUrl: url } }),
        MEMICL_DATA_DIR: path.join(dir, "data"),
        DATABASE_URL: "",
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /gave no readable verdict on any of the 2 pairs \(it answered "banana"\)/,
      );
      expect(result.stdout).not.toMatch(/nan/);
    } finally {
      await fake.stop();
    }
  });
});
