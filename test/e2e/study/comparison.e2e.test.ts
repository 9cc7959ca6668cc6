import { parse } from "csv-parse/sync";
import { runCli } from "../../support/cli";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/** Two models: one that memorizes much more with k, and two that memorize alike (different draws). */
const STRONG = {
  memorizedAtZeroShot: 0.1,
  memorizedAtManyShots: 0.95,
  halfRiseShots: 2,
  nearExactShare: 0,
  seed: 1,
};
const WEAK = {
  memorizedAtZeroShot: 0.1,
  memorizedAtManyShots: 0.15,
  halfRiseShots: 2,
  nearExactShare: 0,
  seed: 2,
};
const WEAK_TOO = { ...WEAK, seed: 3 };

const COMPARE = `query($ids: [ID!]!) { compareExperiments(experimentIds: $ids) {
  experiments { experimentId subject { provider requestedModel } }
  datasets hypothesisTests multipleComparisons warnings
  rows { experimentA experimentB kind measure dataset setting shots pairs rateA rateB difference pValue pValueHolm }
  reports { experimentId subject { requestedModel } memorization { shots rate } } } }`;

describe("comparing experiments (embedded database)", () => {
  let api: TestServer;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    api = await startTestServer("embedded", {
      MEMICL_PROVIDERS_FILE: providersFile({
        strong: { type: "simulated", simulation: STRONG },
        weak: { type: "simulated", simulation: WEAK },
        weakToo: { type: "simulated", simulation: WEAK_TOO },
      }),
      MEMICL_IN_PROCESS_WORKERS: "8",
    });
    const sampleId = await classificationSample(api, "shared", {
      rows: 200,
      instances: 80,
      demonstrations: 10,
      shots: [0, 10],
    });
    // The three experiments run at once, as a lab comparing models would run them.
    const providers = ["strong", "weak", "weakToo"];
    const runs: string[] = [];
    for (const provider of providers) {
      const started = await api.gql(
        `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
        {
          input: {
            name: provider,
            sampleIds: [sampleId],
            settings: ["FULL_INFORMATION"],
            provider,
            model: `${provider}-model`,
            performanceRepeats: 1,
          },
        },
      );
      expect(started.errors).toBeUndefined();
      runs.push(...started.data!.startExperiment.runs.map((run: { id: string }) => run.id));
      ids.set(provider, started.data!.startExperiment.experiment.id);
    }
    for (const run of runs) await waitForRun(api, run, finished, 120_000);
  }, 240_000);
  afterAll(() => api?.close());

  it("finds the configured difference where it is large, and none where it is zero", async () => {
    const response = await api.gql(COMPARE, {
      ids: [ids.get("strong"), ids.get("weak"), ids.get("weakToo")],
    });
    expect(response.errors).toBeUndefined();
    const comparison = response.data!.compareExperiments;
    expect(comparison.experiments.map((e: any) => e.subject.requestedModel)).toEqual([
      "strong-model",
      "weak-model",
      "weakToo-model",
    ]);
    expect(comparison.datasets).toEqual(["shared"]);
    expect(comparison.reports.map((r: any) => r.subject.requestedModel)).toEqual([
      "strong-model",
      "weak-model",
      "weakToo-model",
    ]);
    const rows = comparison.rows;
    // 3 pairs x (2 measures x 2 k of memorization + 2 k of performance).
    expect(rows).toHaveLength(3 * 6);
    expect(comparison.hypothesisTests).toBe(rows.filter((row: any) => row.pValue !== null).length);
    const cell = (a: string, b: string, kind: string, shots: number) =>
      rows.filter(
        (row: any) =>
          row.experimentA === ids.get(a) &&
          row.experimentB === ids.get(b) &&
          row.kind === kind &&
          row.shots === shots,
      );
    // k = 10: strong remembers ~0.8 of the instances, weak ~0.13: found, on the same 80 instances.
    for (const row of cell("strong", "weak", "MEMORIZATION", 10)) {
      expect(row.pairs).toBe(80);
      expect(row.difference).toBeGreaterThan(0.5);
      expect(row.pValueHolm).toBeLessThan(0.001);
    }
    // Alike in configuration: no memorization cell differs after Holm.
    for (const shots of [0, 10])
      for (const row of cell("weak", "weakToo", "MEMORIZATION", shots))
        expect(row.pValueHolm === null || row.pValueHolm >= 0.05).toBe(true);
    // At k = 0 both are configured at 0.1: only chance (their draws differ) separates them.
    for (const row of cell("strong", "weak", "MEMORIZATION", 0))
      expect(Math.abs(row.difference)).toBeLessThan(0.2);
  });

  it("answers from the command line and as CSV over HTTP, naming both models", async () => {
    const [a, b] = [ids.get("strong")!, ids.get("weak")!];
    const markdown = await runCli(["compare", a, b], { DATABASE_URL: api.database.url });
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain("# Experiments compared");
    expect(markdown.stdout).toContain("strong / strong-model");
    expect(markdown.stdout).toContain("weak / weak-model");
    const csv = await runCli(["compare", a, b, "--format", "csv"], { DATABASE_URL: api.database.url });
    expect(csv.code).toBe(0);
    const base = api.server.url.replace(/\/graphql$/, "");
    const served = await fetch(`${base}/export/comparison.csv?experiments=${a},${b}`);
    expect(served.status).toBe(200);
    const text = await served.text();
    expect(text).toBe(csv.stdout);
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(new Set(records.map((r) => `${r.model_a} vs ${r.model_b}`))).toEqual(
      new Set(["strong-model vs weak-model"]),
    );
    expect(records.some((r) => r.statistic === "mcnemarPHolm")).toBe(true);
  });

  it("serves the flat rows of several experiments by model, each row naming its provider and model", async () => {
    const query = `query($filter: ReportRowsAcrossFilter!, $after: String) {
      reportRowsAcross(filter: $filter, first: 100, after: $after) {
        edges { node { name value scope { experimentId provider model dataset setting shots measure } } }
        pageInfo { hasNextPage endCursor } } }`;
    const rows: any[] = [];
    for (let after: string | null = null; ; ) {
      const page: any = await api.gql(query, {
        filter: { models: ["strong-model", "weak-model"], names: ["memorization.rate"] },
        after,
      });
      expect(page.errors).toBeUndefined();
      rows.push(...page.data.reportRowsAcross.edges.map((edge: any) => edge.node));
      if (!page.data.reportRowsAcross.pageInfo.hasNextPage) break;
      after = page.data.reportRowsAcross.pageInfo.endCursor;
    }
    // Per model: 2 k x 2 measures of memorization.rate on the one sample (the by-regime rows have another name).
    expect(rows).toHaveLength(2 * 4);
    expect(new Set(rows.map((row) => `${row.scope.provider}/${row.scope.model}`))).toEqual(
      new Set(["strong/strong-model", "weak/weak-model"]),
    );
    expect(new Set(rows.map((row) => row.scope.experimentId))).toEqual(
      new Set([ids.get("strong"), ids.get("weak")]),
    );
    const none = await api.gql(query, { filter: { names: ["memorization.rate"] } });
    expect(none.errors?.[0].message).toMatch(/name providers, models or experimentIds/);
  });

  it("says so when experiments ran different samples and cells pair few instances", async () => {
    expect(
      (await api.gql(COMPARE, { ids: [ids.get("strong"), ids.get("weak")] })).data!.compareExperiments
        .warnings,
    ).toEqual([]);
    const datasets = await api.gql(`{ datasets(first: 20) { edges { node { id name } } } }`);
    const shared = datasets.data!.datasets.edges.find((edge: any) => edge.node.name === "shared").node.id;
    const sample = await api.gql(
      `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
      { input: { datasetId: shared, seed: 9, instanceCount: 12, demonstrationCount: 0, shotCounts: [0] } },
    );
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "small",
          sampleIds: [sample.data!.createSample.sample.id],
          kinds: ["MEMORIZATION"],
          settings: ["FULL_INFORMATION"],
          provider: "weak",
          model: "small-model",
        },
      },
    );
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 120_000);
    const small = started.data!.startExperiment.experiment.id;
    const compared = (await api.gql(COMPARE, { ids: [ids.get("strong"), small] })).data!.compareExperiments;
    expect(Math.max(...compared.rows.map((row: any) => row.pairs))).toBeLessThanOrEqual(12);
    expect(compared.warnings).toHaveLength(2);
    expect(compared.warnings[0]).toMatch(
      /ran different samples .*: each cell pairs only the dataset instances both drew, at most \d+ here/,
    );
    expect(compared.warnings[1]).toMatch(/^\d+ of \d+ cells pair fewer than 30 instances \(the fewest: \d+,/);
    const markdown = await runCli(["compare", ids.get("strong")!, small], { DATABASE_URL: api.database.url });
    expect(markdown.stdout).toContain("**Warning:** experiments");
    expect(markdown.stderr).toMatch(/memicl: warning: experiments .* ran different samples/);
  }, 120_000);

  it("refuses one experiment, or experiments that share no dataset, saying why", async () => {
    const one = await api.gql(COMPARE, { ids: [ids.get("strong")] });
    expect(one.errors?.[0].message).toMatch(/compare 2 to 10 distinct experiments/);
    const otherSample = await classificationSample(api, "elsewhere", {
      rows: 40,
      instances: 10,
      demonstrations: 0,
      shots: [0],
    });
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "elsewhere",
          sampleIds: [otherSample],
          kinds: ["MEMORIZATION"],
          provider: "weak",
          model: "m",
        },
      },
    );
    const elsewhere = started.data!.startExperiment.experiment.id;
    const refused = await api.gql(COMPARE, { ids: [ids.get("strong"), elsewhere] });
    expect(refused.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/share no dataset: nothing to compare/),
      extensions: { code: "BAD_USER_INPUT" },
    });
    const base = api.server.url.replace(/\/graphql$/, "");
    const served = await fetch(`${base}/export/comparison.csv?experiments=${ids.get("strong")},${elsewhere}`);
    expect(served.status).toBe(400);
  });
});
