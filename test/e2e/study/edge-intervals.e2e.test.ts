import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/**
 * A study whose cells are all 0% or all 100% (a model that never recalls and never answers right, and one that
 * always does): no interval in its report has zero width. Walks every row of the report's CSV with an interval.
 */
describe("intervals at the edges (embedded database)", () => {
  let api: TestServer;
  let sampleId: string;

  beforeAll(async () => {
    const edge = (value: number) => ({
      type: "simulated",
      simulation: {
        memorizedAtZeroShot: value,
        memorizedAtManyShots: value,
        halfRiseShots: 5,
        nearExactShare: 0,
        accuracyWhenMemorized: value,
        accuracyOtherwise: value,
        seed: 3,
      },
    });
    api = await startTestServer("embedded", {
      MEMICL_PROVIDERS_FILE: providersFile({ never: edge(0), always: edge(1) }),
      MEMICL_IN_PROCESS_WORKERS: "16",
    });
    sampleId = await classificationSample(api, "edges", {
      rows: 120,
      instances: 30,
      demonstrations: 10,
      shots: [0, 5],
    });
  }, 120_000);

  afterAll(() => api?.close());

  it.each(["never", "always"])(
    "gives every interval width where the model %s recalls and answers right",
    async (provider) => {
      const started = await api.gql(
        `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
        { input: { name: provider, sampleIds: [sampleId], provider, model: "m", performanceRepeats: 3 } },
      );
      expect(started.errors).toBeUndefined();
      const { experiment, runs } = started.data!.startExperiment;
      for (const run of runs) await waitForRun(api, run.id, finished, 60_000);
      const base = api.server.url.replace(/\/graphql$/, "");
      const response = await fetch(`${base}/export/experiments/${experiment.id}/report.csv`);
      expect(response.status).toBe(200);
      const { parse } = require("csv-parse/sync");
      const rows = parse(await response.text(), { columns: true }) as Record<string, string>[];
      const edge = provider === "never" ? "0" : "1";
      const rates = rows.filter((row) => ["memorization.rate", "performance.accuracy"].includes(row.name));
      // The study is at the edge: every rate is 0 or 1 ...
      expect(rates.length).toBeGreaterThan(8);
      expect([...new Set(rates.map((row) => row.value))]).toEqual([edge]);
      // ... and no interval claims it is certain.
      const intervals = rows.filter((row) => row.ci_low !== "" && row.ci_high !== "");
      expect(intervals.length).toBeGreaterThan(rates.length / 2);
      const flat = intervals.filter((row) => Number(row.ci_high) <= Number(row.ci_low));
      expect(
        flat.map((row) => `${row.name} ${row.setting} k=${row.shots} ${row.ci_low}-${row.ci_high}`),
      ).toEqual([]);
    },
    120_000,
  );
});
