import { ChildProcess, spawn } from "node:child_process";
import { Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import { ApiKeyService } from "../../../src/auth/api-key.service";
import { MEMICL_COMMAND, startServe } from "../../support/cli";
import { BACKENDS } from "../../support/databases";
import { classificationSample, providersFile, startRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const RUN_PROGRESS = `subscription($id: ID!) { runProgress(runId: $id) { id status doneCount failedCount expectedCount } }`;
const EXPERIMENT_PROGRESS = `subscription($id: ID!) { experimentProgress(experimentId: $id) {
  experimentId progress { status runs done expected } runs { id status doneCount } } }`;

function client(api: TestServer, connectionParams?: Record<string, unknown>): Client {
  return createClient({
    url: api.server.url.replace(/^http/, "ws"),
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: true,
  });
}

/** Every event of a subscription until it completes (or fails). */
function collect<T>(ws: Client, query: string, variables: Record<string, unknown>): Promise<T[]> {
  const events: T[] = [];
  return new Promise((resolve, reject) => {
    ws.subscribe<T>(
      { query, variables },
      {
        next: (message) => {
          if (message.errors) reject(new Error(JSON.stringify(message.errors)));
          else events.push(message.data as T);
        },
        // A refused connection ends in a close event: its code and reason say why.
        error: (error) =>
          reject(
            error instanceof Error
              ? error
              : typeof (error as { code?: unknown }).code === "number"
                ? new Error(
                    `closed ${(error as { code: number }).code} ${(error as { reason?: string }).reason ?? ""}`,
                  )
                : new Error(JSON.stringify(error)),
          ),
        complete: () => resolve(events),
      },
    );
  });
}

describe.each(BACKENDS)("live progress over graphql-ws (%s database)", (backend) => {
  let api: TestServer;
  let sampleId: string;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    env = {
      MEMICL_PROVIDERS_FILE: providersFile({
        sim: { type: "simulated", maxConcurrency: 2, simulation: { latencyMs: 100 } },
      }),
    };
    // No workers in the server: the work is done by a `memicl worker` in another process.
    api = await startTestServer(backend, { ...env, MEMICL_IN_PROCESS_WORKERS: "0" });
    sampleId = await classificationSample(api, "watched", {
      rows: 40,
      instances: 10,
      demonstrations: 2,
      shots: [0],
    });
  }, 60_000);
  /** A `memicl worker` in its own process, on the test's database. */
  const startWorker = () => {
    const child = spawn(process.execPath, [...MEMICL_COMMAND, "worker", "--concurrency", "2"], {
      env: {
        ...process.env,
        ...env,
        DATABASE_URL: api.database.url,
        LOG_LEVEL: "warn",
      },
      stdio: "ignore",
    });
    children.push(child);
  };
  const stopChildren = async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  };
  afterAll(async () => {
    await stopChildren();
    await api?.close();
  });

  it("streams a run's progress made by a worker in another process, current state first, until it ends", async () => {
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "FULL_INFORMATION",
      shots: 0,
      provider: "sim",
      model: "m",
    });
    const ws = client(api);
    try {
      const events = collect<{ runProgress: any }>(ws, RUN_PROGRESS, { id: run.id });
      // Nothing works on the run yet: the first message is its current, queued state. Then a worker starts.
      await new Promise((resolve) => setTimeout(resolve, 300));
      startWorker();
      const progress = (await events).map((event) => event.runProgress);
      expect(progress[0]).toMatchObject({ id: run.id, status: "QUEUED", doneCount: 0, expectedCount: 10 });
      expect(progress.at(-1)).toMatchObject({ status: "SUCCEEDED", doneCount: 10, failedCount: 0 });
      expect(progress.length).toBeGreaterThanOrEqual(3);
      const done = progress.map((event) => event.doneCount);
      expect(done).toEqual([...done].sort((a, b) => a - b));
    } finally {
      await ws.dispose();
      await stopChildren();
    }
  }, 60_000);

  it("reaches a client in a third process: memicl serve and memicl worker each in their own", async () => {
    // This test process is only the client; the server and the worker are child processes on one database.
    const serve = await startServe({
      ...env,
      DATABASE_URL: api.database.url,
      MEMICL_DATA_DIR: "",
      MEMICL_IN_PROCESS_WORKERS: "0",
    });
    const ws = createClient({
      url: `${serve.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    try {
      const { run } = await startRun(api, {
        sampleId,
        kind: "MEMORIZATION",
        setting: "ONLY_SEGMENT_PAIRS",
        shots: 0,
        provider: "sim",
        model: "third-process",
      });
      const events = collect<{ runProgress: any }>(ws, RUN_PROGRESS, { id: run.id });
      await new Promise((resolve) => setTimeout(resolve, 300));
      startWorker();
      const progress = (await events).map((event) => event.runProgress);
      expect(progress[0]).toMatchObject({ id: run.id, status: "QUEUED", doneCount: 0 });
      expect(progress.at(-1)).toMatchObject({ status: "SUCCEEDED", doneCount: 10 });
      const done = progress.map((event) => event.doneCount);
      expect(done).toEqual([...done].sort((a, b) => a - b));
    } finally {
      await ws.dispose();
      await stopChildren();
      await serve.stop();
    }
  }, 90_000);

  it("streams an experiment's runs and their sum, and says when an id does not exist", async () => {
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } } }`,
      {
        input: {
          name: "watched",
          sampleIds: [sampleId],
          provider: "sim",
          model: "m2",
          kinds: ["MEMORIZATION"],
          settings: ["FULL_INFORMATION", "ONLY_SEGMENT_PAIRS"],
        },
      },
    );
    const experimentId = started.data!.startExperiment.experiment.id;
    const ws = client(api);
    startWorker();
    try {
      const events = (
        await collect<{ experimentProgress: any }>(ws, EXPERIMENT_PROGRESS, { id: experimentId })
      ).map((event) => event.experimentProgress);
      expect(events.at(-1)).toMatchObject({
        experimentId,
        progress: { status: "SUCCEEDED", runs: 2, done: 20, expected: 20 },
      });
      expect(events.at(-1).runs.map((run: any) => run.status)).toEqual(["SUCCEEDED", "SUCCEEDED"]);
      await expect(collect(ws, RUN_PROGRESS, { id: "00000000-0000-0000-0000-000000000000" })).rejects.toThrow(
        /NOT_FOUND|does not exist/,
      );
    } finally {
      await ws.dispose();
      await stopChildren();
    }
  }, 60_000);
});

describe("subscriptions with API keys on", () => {
  it("needs a key in the connection's init payload", async () => {
    const api = await startTestServer("embedded", { MEMICL_AUTH: "keys" });
    const { key } = await new ApiKeyService(api.database.dataSource).create("watcher", "viewer");
    try {
      const query = `subscription { runProgress(runId: "00000000-0000-0000-0000-000000000000") { id } }`;
      const anonymous = client(api);
      // Refused for the reason the test names: no key (graphql-ws's 4403 Forbidden), not any failure.
      await expect(collect(anonymous, query, {})).rejects.toThrow(/closed 4403/);
      await anonymous.dispose();
      const keyed = client(api, { authorization: `Bearer ${key}` });
      await expect(collect(keyed, query, {})).rejects.toThrow(/does not exist/);
      await keyed.dispose();
    } finally {
      await api.close();
    }
  }, 60_000);
});
