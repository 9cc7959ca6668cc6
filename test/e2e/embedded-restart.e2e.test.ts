import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serverPidOf } from "../../src/db/embedded";
import { runCli, ServeProcess, startServe } from "../support/cli";
import { discardDataFolder } from "../support/data-folders";
import { FakeOpenAiServer } from "../support/fake-openai-server";
import { providersFile } from "../support/runs";

/**
 * The embedded PostgreSQL server is killed (kill -9) under a running `memicl serve`: serve starts it again
 * (PostgreSQL replays its write-ahead log) and the run finishes with exact counts, without a manual step.
 */
describe("the embedded server killed mid-run", () => {
  const fake = new FakeOpenAiServer();
  let dir: string;
  let env: Record<string, string>;
  let serve: ServeProcess | null = null;

  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${serve!.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: unknown[] };
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-restart-"));
    fs.chmodSync(dir, 0o755);
    const url = await fake.start();
    env = {
      MEMICL_DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: "",
      MEMICL_PROVIDERS_FILE: providersFile({ slow: { type: "openai", baseUrl: url, maxConcurrency: 4 } }),
      MEMICL_IN_PROCESS_WORKERS: "4",
      MEMICL_LEASE_SECONDS: "4",
    };
    const rows = path.join(dir, "rows.jsonl");
    fs.writeFileSync(
      rows,
      `${Array.from({ length: 40 }, (_, i) => JSON.stringify({ text: `row ${i} has a few words more to cut here`, label: `l${i % 2}` })).join("\n")}\n`,
    );
    expect((await runCli(["import", rows, "--name", "rows"], env)).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    await discardDataFolder(env.MEMICL_DATA_DIR);
    await fake.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("is started again by serve, and the run ends with every item once", async () => {
    serve = await startServe(env);
    const sampled = await runCli(
      ["sample", "--dataset", "rows", "--instances", "16", "--demonstrations", "0", "--shots", "0"],
      env,
    );
    const sampleId = /sample ([0-9a-f-]{36})/.exec(sampled.stdout)![1];
    fake.fallback = { kind: "answer", delayMs: 300 };
    const started = await gql(`mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`, {
      input: {
        sampleId,
        kind: "MEMORIZATION",
        setting: "ONLY_SEGMENT_PAIRS",
        shots: 0,
        provider: "slow",
        model: "m",
      },
    });
    const runId = started.data!.startRun.run.id;
    const deadline = Date.now() + 20_000;
    while (fake.requests.length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    const cluster = JSON.parse(fs.readFileSync(path.join(env.MEMICL_DATA_DIR, "cluster.json"), "utf8"));
    const postmaster = serverPidOf(cluster.clusterDir)!;
    process.kill(postmaster, "SIGKILL");
    fake.fallback = { kind: "answer" };

    let run: any = null;
    const until = Date.now() + 90_000;
    while (Date.now() < until) {
      run =
        (
          await gql(`query($id: ID!) { run(id: $id) { status doneCount failedCount } }`, { id: runId }).catch(
            () => null,
          )
        )?.data?.run ?? run;
      if (run && ["SUCCEEDED", "FAILED", "CANCELLED"].includes(run.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // What serve and the server said, when the run did not end: the watchdog's warnings and errors are there.
    if (run?.status !== "SUCCEEDED") {
      const log = path.join(env.MEMICL_DATA_DIR, "postgres.log");
      process.stderr.write(`serve:\n${serve.output()}\n`);
      if (fs.existsSync(log))
        process.stderr.write(`server:\n${fs.readFileSync(log, "utf8").slice(-4_000)}\n`);
    }
    expect(run).toEqual({ status: "SUCCEEDED", doneCount: 16, failedCount: 0 });
    // A new server, started by serve itself.
    const restarted = serverPidOf(cluster.clusterDir);
    expect(restarted).not.toBeNull();
    expect(restarted).not.toBe(postmaster);
    expect((await fetch(`${serve.url}/health`)).status).toBe(200);
    const rows = await gql(
      `query($id: ID!) { run(id: $id) { completions(first: 100) { edges { node { status sampledInstance { id } } } } } }`,
      { id: runId },
    );
    const nodes = rows.data!.run.completions.edges.map((edge: any) => edge.node);
    expect(nodes.filter((node: any) => node.status === "SUCCEEDED")).toHaveLength(16);
    expect(new Set(nodes.map((node: any) => node.sampledInstance.id)).size).toBe(16);
  }, 150_000);
});
