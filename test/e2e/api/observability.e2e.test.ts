import { BACKENDS } from "../../support/databases";
import { classificationSample, finished, providersFile, startRun, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const TOKEN = "scrape-token-0123456789";

/** The value of one sample line of a Prometheus text exposition (`name{labels} value`), or null. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
      return Number(line.split(" ").at(-1));
  }
  return null;
}

describe.each(BACKENDS)("metrics and readiness (%s database)", (backend) => {
  let api: TestServer;
  let base: string;

  beforeAll(async () => {
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated" } }),
      MEMICL_IN_PROCESS_WORKERS: "4",
      MEMICL_METRICS_TOKEN: TOKEN,
    });
    base = api.server.url.replace(/\/graphql$/, "");
  }, 60_000);
  afterAll(() => api?.close());
  const scrape = async () =>
    (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();

  it("says ready when the database answers, migrations are applied and the queue runs", async () => {
    const response = await fetch(`${base}/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "ready",
      checks: { database: "ok", migrations: "ok", queue: "ok" },
    });
  });

  it("serves Prometheus metrics to the holder of the metrics token only", async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${base}/metrics`, { headers: { authorization: "Bearer wrong-token-0123456789" } }))
        .status,
    ).toBe(401);
    const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/plain/);
  });

  it("counts completions, provider calls, judgments and GraphQL operations as they happen", async () => {
    const sampleId = await classificationSample(api, "observed", {
      rows: 40,
      instances: 8,
      demonstrations: 2,
      shots: [0],
    });
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "FULL_INFORMATION",
      shots: 0,
      provider: "sim",
      model: "m",
    });
    await waitForRun(api, run.id, finished);
    await api.gql(`query Dashboard { runs(first: 1) { edges { node { id } } } }`);
    const text = await scrape();
    expect(sample(text, "memicl_completions", { provider: "sim", state: "succeeded" })).toBe(8);
    expect(sample(text, "memicl_completions", { provider: "sim", state: "waiting" })).toBe(0);
    expect(sample(text, "memicl_runs", { status: "SUCCEEDED" })).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "memicl_provider_call_duration_seconds_count", { provider: "sim", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(8);
    expect(
      sample(text, "memicl_completions_stored_total", { provider: "sim", status: "succeeded" }),
    ).toBeGreaterThanOrEqual(8);
    expect(text).toMatch(
      /memicl_judgments_total\{judge_kind="HEURISTIC",verdict="(EXACT|NEAR_EXACT|INEXACT)"\} \d+/,
    );
    expect(sample(text, "memicl_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
    // A quiet server: nothing waits for a connection (the scrape's own queries are not counted).
    expect(sample(text, "memicl_db_pool_connections", { state: "waiting" })).toBe(0);
    expect(sample(text, "memicl_workers_live")).toBeGreaterThanOrEqual(1);
    expect(text).toContain("memicl_process_resident_memory_bytes");
  });

  it("counts the study results it computes for readers, once per change of the results", async () => {
    const sampleId = await classificationSample(api, "reported", {
      rows: 40,
      instances: 6,
      demonstrations: 2,
      shots: [0],
    });
    const computed = async () => {
      const text = await scrape();
      return {
        count: sample(text, "memicl_results_computations_total", { outcome: "ok" }) ?? 0,
        seconds: sample(text, "memicl_results_computing_seconds_total") ?? 0,
      };
    };
    // Before the run: the metric rows are rewritten in the background as its judgments land, and that rewrite
    // may compute the results before the read below does (then the read is served from memory).
    const before = await computed();
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "reported",
          sampleIds: [sampleId],
          provider: "sim",
          model: "m",
          performanceRepeats: 1,
        },
      },
    );
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished);
    const id = started.data!.startExperiment.experiment.id;
    const report = `query($id: ID!) { studyReport(experimentId: $id) { computedAt } }`;
    expect((await api.gql(report, { id })).errors).toBeUndefined();
    const once = await computed();
    // The report and its memorization tables (breakdowns read through the same cache), computed for the finished
    // run's results by the read or by the background rewrite.
    expect(once.count).toBeGreaterThan(before.count);
    expect(once.seconds).toBeGreaterThan(before.seconds);
    // Read again, the results unchanged: served from memory, nothing computed.
    await api.gql(report, { id });
    expect((await computed()).count).toBe(once.count);
  });
});
