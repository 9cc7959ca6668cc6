import { runCli } from "../support/cli";
import { BACKENDS } from "../support/databases";
import { classificationSample, finished, providersFile, waitForRun } from "../support/runs";
import { startTestServer, TestServer } from "../support/server";

const DATASETS = `{ datasets(first: 50) { edges { node { id name } } } }`;
const UPDATE = `mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { name } }`;
const START = `mutation($input: StartExperimentInput!) {
  startExperiment(input: $input) { experiment { id } runs { id kind setting temperature repeats expectedCount } } }`;
const ESTIMATE = `query($input: EstimateGridInput!) { estimateGrid(input: $input) { calls rows { kind } } }`;
const RENDER = `query($input: RenderPromptInput!) { renderPrompt(input: $input) { messages { role content } } }`;
const SUMMARY = `query($id: ID!) { studyReport(experimentId: $id) {
  contaminationSummary { dataset cdd { runIds prompt instances notCompared samplesPerInstance leaked leakShare
    leakShareLow leakShareHigh meanPeakedness peakAlpha xi verdict alpha cannotTell
    test { controlDataset instances controlInstances controlLeakShare auc pValue }
    instanceScores { sampledInstanceId peakedness leaked samples } } } } }`;

/** Remembers every instance of "seen" (none of "fresh"), and keeps its continuation in 90% of samples. */
const RECALLS = {
  memorizedAtZeroShot: 1,
  nearExactShare: 0,
  sampleFidelity: 0.9,
  unseenDatasets: ["fresh"],
  seed: 4,
};

describe.each(BACKENDS)("the CDD method (%s database)", (backend) => {
  let api: TestServer;
  const samples: Record<string, string> = {};
  let providers: string;

  beforeAll(async () => {
    providers = providersFile({
      recalls: { type: "simulated", simulation: RECALLS },
      constant: { type: "simulated", simulation: { behaviour: "constant", constantAnswer: "no idea" } },
      // CoDeC: an instance of "seen" loses confidence with another before it; one of "fresh" gains.
      codec: {
        type: "simulated",
        simulation: { unseenDatasets: ["fresh"], memberContextGain: -0.3, contextGain: 0.3, seed: 5 },
      },
      // TS-Guessing: remembers every instance of "guess-seen", none of "guess-fresh".
      guesses: {
        type: "simulated",
        simulation: { memorizedAtZeroShot: 1, unseenDatasets: ["guess-fresh"], seed: 6 },
      },
      // An OpenAI-compatible server that was not declared to serve raw prompts.
      chatOnly: { type: "openai", baseUrl: "http://127.0.0.1:9/v1" },
    });
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providers,
      MEMICL_IN_PROCESS_WORKERS: "8",
    });
    for (const name of ["seen", "fresh"])
      samples[name] = await classificationSample(api, name, {
        rows: 60,
        instances: 20,
        demonstrations: 0,
        shots: [0],
      });
    const datasets = (await api.gql(DATASETS)).data!.datasets.edges.map((edge: any) => edge.node);
    const id = (name: string) => datasets.find((d: any) => d.name === name).id;
    const marked = await api.gql(UPDATE, { input: { id: id("fresh"), controlOf: id("seen") } });
    expect(marked.errors).toBeUndefined();
  }, 120_000);
  afterAll(() => api?.close());

  async function study(provider: string, cdd: Record<string, unknown>) {
    const started = await api.gql(START, {
      input: {
        name: `cdd ${provider}`,
        sampleIds: [samples.seen, samples.fresh],
        provider,
        model: "m",
        methods: ["CDD"],
        memorizationMaxOutputTokens: 40,
        cdd,
      },
    });
    expect(started.errors).toBeUndefined();
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 120_000);
    const id = started.data!.startExperiment.experiment.id;
    const report = (await api.gql(SUMMARY, { id })).data!.studyReport;
    const row = (dataset: string) => report.contaminationSummary.find((r: any) => r.dataset === dataset).cdd;
    return { id, runs: started.data!.startExperiment.runs, seen: row("seen"), fresh: row("fresh") };
  }

  it("finds a model that samples what it saw near its greedy answer, against its control", async () => {
    const recalled = await study("recalls", { prompt: "RAW", samples: 6 });
    // Per sample: a greedy run at temperature 0 and a sampled run of 6 repeats at the authors' 0.8, raw prompts.
    expect(
      recalled.runs.map((run: any) => [
        run.kind,
        run.setting,
        run.temperature,
        run.repeats,
        run.expectedCount,
      ]),
    ).toEqual([
      ["CONTINUATION", null, 0, 1, 20],
      ["CONTINUATION", null, 0.8, 6, 120],
      ["CONTINUATION", null, 0, 1, 20],
      ["CONTINUATION", null, 0.8, 6, 120],
    ]);
    expect(recalled.seen).toMatchObject({
      prompt: "RAW",
      instances: 20,
      notCompared: 0,
      samplesPerInstance: 6,
      peakAlpha: 0.05,
      xi: 0.01,
      verdict: "CONTAMINATED",
      alpha: 0.05,
      test: { controlDataset: "fresh", instances: 20, controlInstances: 20 },
    });
    expect(recalled.seen.leakShare).toBe(1);
    expect(recalled.seen.test.pValue).toBeLessThan(0.001);
    expect(recalled.seen.test.controlLeakShare).toBeLessThan(0.3);
    expect(recalled.seen.instanceScores).toHaveLength(20);
    expect(recalled.seen.cannotTell).toMatch(/only the control decides/);
    // The control has no control of its own: the authors' share, no verdict.
    expect(recalled.fresh).toMatchObject({ verdict: null, test: null });

    const markdown = await runCli(["report", recalled.id], { DATABASE_URL: api.database.url });
    expect(markdown.stdout).toMatch(
      /contaminated \(AUC [\d.]+ against fresh, p [^;]+; n=20\/20; leaked 100\.0%/,
    );
    const csv = await runCli(["report", recalled.id, "--format", "csv"], { DATABASE_URL: api.database.url });
    expect(csv.stdout).toMatch(/cdd_contaminated/);
  }, 240_000);

  it("does not call a model that always answers the same contaminated, though every instance is 'leaked'", async () => {
    const constant = await study("constant", { samples: 4, alpha: 0.1, xi: 0.2 });
    expect(constant.runs.map((run: any) => run.setting)).toEqual(Array(4).fill("FULL_INFORMATION"));
    expect(constant.seen).toMatchObject({
      prompt: "GUIDED",
      leakShare: 1,
      peakAlpha: 0.1,
      xi: 0.2,
      verdict: "NO_EVIDENCE",
    });
  }, 240_000);

  it("n-gram coverage: finds what the model samples of the true continuation, beside CDD, each on its own runs", async () => {
    const started = await api.gql(START, {
      input: {
        name: "both sampling methods",
        sampleIds: [samples.seen, samples.fresh],
        provider: "recalls",
        model: "m2",
        methods: ["CDD", "NGRAM_COVERAGE"],
        memorizationMaxOutputTokens: 40,
        cdd: { samples: 3 },
        ngramCoverage: { samples: 4 },
      },
    });
    expect(started.errors).toBeUndefined();
    const runs = started.data!.startExperiment.runs;
    // Per sample: CDD's greedy and sampled runs, then n-gram coverage's one run at the authors' temperature 1.0.
    expect(runs.map((run: any) => [run.setting, run.temperature, run.repeats])).toEqual([
      ["FULL_INFORMATION", 0, 1],
      ["FULL_INFORMATION", 0.8, 3],
      ["FULL_INFORMATION", 1, 4],
      ["FULL_INFORMATION", 0, 1],
      ["FULL_INFORMATION", 0.8, 3],
      ["FULL_INFORMATION", 1, 4],
    ]);
    for (const run of runs) await waitForRun(api, run.id, finished, 120_000);
    const report = (
      await api.gql(
        `query($id: ID!) { studyReport(experimentId: $id) {
          decisions { dataset method verdict }
          contaminationSummary { dataset cdd { samplesPerInstance verdict }
            ngramCoverage { n prompt instances samplesPerInstance meanCoverage verdict alpha
              test { controlDataset controlMeanCoverage pValue } instanceScores { maxCoverage } } } } }`,
        { id: started.data!.startExperiment.experiment.id },
      )
    ).data!.studyReport;
    const seen = report.contaminationSummary.find((row: any) => row.dataset === "seen");
    expect(seen.cdd).toEqual({ samplesPerInstance: 3, verdict: "CONTAMINATED" });
    expect(seen.ngramCoverage).toMatchObject({
      n: 3,
      prompt: "GUIDED",
      instances: 20,
      samplesPerInstance: 4,
      verdict: "CONTAMINATED",
      alpha: 0.05,
      test: { controlDataset: "fresh" },
    });
    expect(seen.ngramCoverage.meanCoverage).toBeGreaterThan(0.9);
    expect(seen.ngramCoverage.test.controlMeanCoverage).toBeLessThan(0.1);
    expect(
      report.decisions.filter((d: any) => d.dataset === "seen").map((d: any) => [d.method, d.verdict]),
    ).toEqual([
      ["cdd", "CONTAMINATED"],
      ["ngram-coverage", "CONTAMINATED"],
    ]);
  }, 240_000);

  it("shows its prompts and prices them before it runs", async () => {
    const raw = await api.gql(RENDER, { input: { sampleId: samples.seen, kind: "CONTINUATION", shots: 0 } });
    expect(raw.errors).toBeUndefined();
    expect(raw.data!.renderPrompt.messages).toEqual([
      { role: "user", content: expect.stringMatching(/^seen\d+w0 /) },
    ]);
    const guided = await api.gql(RENDER, {
      input: { sampleId: samples.seen, kind: "CONTINUATION", setting: "FULL_INFORMATION", shots: 0 },
    });
    expect(guided.data!.renderPrompt.messages.at(-1).content).toMatch(/seen/);
    const estimate = await api.gql(ESTIMATE, {
      input: { sampleIds: [samples.seen], methods: ["CDD"], cdd: { samples: 10 } },
    });
    expect(estimate.errors).toBeUndefined();
    expect(estimate.data!.estimateGrid.calls).toBe(20 * 11);
  });

  it("runs from the command line with the method's options, and names a bad one", async () => {
    const env = { DATABASE_URL: api.database.url, MEMICL_PROVIDERS_FILE: providers };
    const queued = await runCli(
      [
        "experiment",
        "--sample",
        samples.seen,
        "--provider",
        "recalls",
        "--model",
        "cli",
        "--methods",
        "cdd",
      ].concat(["--cdd-prompt", "raw", "--cdd-samples", "3", "--cdd-xi", "0.2", "--yes"]),
      env,
    );
    expect(queued.stdout).toMatch(/queued experiment [0-9a-f-]{36}: 2 runs, 80 completions/);
    const bad = await runCli(
      [
        "experiment",
        "--sample",
        samples.seen,
        "--provider",
        "recalls",
        "--model",
        "cli",
        "--methods",
        "cdd",
      ].concat(["--cdd-prompt", "sideways", "--yes"]),
      env,
    );
    expect(bad.code).not.toBe(0);
    const raw = await runCli(
      ["prompt", "--sample", samples.seen, "--kind", "continuation", "--setting", "raw"],
      env,
    );
    expect(raw.stdout).toMatch(/^# continuation\/CLASSIFICATION v1, k=0, .*\n\n\[user\]\nseen\d+w0 /);
    expect(raw.stdout).toContain("[expected continuation]");
    expect(bad.stderr).toMatch(/--cdd-prompt: guided or raw \(got "sideways"\)/);
  });

  it("CoDeC: scores each instance alone and after another, beside LOGPROB, and finds the drops", async () => {
    const started = await api.gql(START, {
      input: {
        name: "codec",
        sampleIds: [samples.seen, samples.fresh],
        provider: "codec",
        model: "m",
        methods: ["LOGPROB", "CODEC"],
      },
    });
    expect(started.errors).toBeUndefined();
    const runs = started.data!.startExperiment.runs;
    // Per sample: LOGPROB's scoring run, then CoDeC's two passes (alone, in context).
    expect(runs.map((run: any) => [run.kind, run.expectedCount])).toEqual(Array(6).fill(["LOGPROB", 20]));
    for (const run of runs) await waitForRun(api, run.id, finished, 120_000);
    const id = started.data!.startExperiment.experiment.id;
    const report = (
      await api.gql(
        `query($id: ID!) { studyReport(experimentId: $id) {
          decisions { dataset method verdict errorRate }
          contaminationSummary { dataset logprob { runIds }
            codec { runIds instances notCompared dropped dropShare dropShareLow dropShareHigh meanDelta verdict
              alpha cannotTell test { controlDataset instances controlInstances controlDropShare auc pValue }
              instanceScores { sampledInstanceId alone inContext delta tokens } } } } }`,
        { id },
      )
    ).data!.studyReport;
    const row = (dataset: string) => report.contaminationSummary.find((r: any) => r.dataset === dataset);
    const seen = row("seen");
    // LOGPROB reads its own run only; CoDeC its two.
    expect(seen.logprob.runIds).toHaveLength(1);
    expect(seen.codec.runIds).toHaveLength(2);
    expect(seen.codec.runIds).not.toContain(seen.logprob.runIds[0]);
    expect(seen.codec).toMatchObject({
      instances: 20,
      notCompared: 0,
      verdict: "CONTAMINATED",
      alpha: 0.05,
      test: { controlDataset: "fresh", instances: 20, controlInstances: 20 },
    });
    expect(seen.codec.dropShare).toBeGreaterThan(0.8);
    expect(seen.codec.meanDelta).toBeLessThan(0);
    expect(seen.codec.test.controlDropShare).toBeLessThan(0.2);
    expect(seen.codec.test.pValue).toBeLessThan(0.001);
    for (const score of seen.codec.instanceScores)
      expect(score.delta).toBeCloseTo(score.inContext - score.alone, 9);
    expect(seen.codec.cannotTell).toMatch(/only the control decides/);
    expect(row("fresh").codec).toMatchObject({ verdict: null, test: null });
    expect(
      report.decisions
        .filter((d: any) => d.dataset === "seen" && d.method === "codec")
        .map((d: any) => [d.verdict, d.errorRate]),
    ).toEqual([["CONTAMINATED", 0.05]]);
    const markdown = await runCli(["report", id], { DATABASE_URL: api.database.url });
    expect(markdown.stdout).toMatch(
      /contaminated \(AUC [\d.]+ against fresh, p [^;]+; n=20\/20; \d+\/20 drop with context/,
    );
    const csv = await runCli(["report", id, "--format", "csv"], { DATABASE_URL: api.database.url });
    expect(csv.stdout).toMatch(/codec_contaminated/);
  }, 240_000);

  it("CoDeC: shows its in-context prompt, prices both passes and runs from the command line", async () => {
    const alone = await api.gql(RENDER, { input: { sampleId: samples.seen, kind: "LOGPROB", shots: 0 } });
    const inContext = await api.gql(RENDER, {
      input: { sampleId: samples.seen, kind: "LOGPROB", shots: 0, inContext: true },
    });
    expect(inContext.errors).toBeUndefined();
    const own = alone.data!.renderPrompt.messages[0].content;
    const both = inContext.data!.renderPrompt.messages;
    expect(both).toHaveLength(1);
    // Another instance of the sample, a blank line, then the instance as LOGPROB scores it.
    expect(both[0].content).toMatch(/^seen\d+w0 [^\n]*\n\nseen\d+w0 /);
    expect(both[0].content.endsWith(`\n\n${own}`)).toBe(true);
    expect(both[0].content).not.toBe(`${own}\n\n${own}`);
    const estimate = await api.gql(
      `query($input: EstimateGridInput!) { estimateGrid(input: $input) { calls rows { kind promptTokens } } }`,
      { input: { sampleIds: [samples.seen], methods: ["CODEC"] } },
    );
    expect(estimate.errors).toBeUndefined();
    const rows = estimate.data!.estimateGrid.rows;
    expect(estimate.data!.estimateGrid.calls).toBe(40);
    expect(rows.map((r: any) => r.kind)).toEqual(["LOGPROB", "LOGPROB"]);
    expect(rows[1].promptTokens).toBeGreaterThan(1.5 * rows[0].promptTokens);

    const env = { DATABASE_URL: api.database.url, MEMICL_PROVIDERS_FILE: providers };
    const printed = await runCli(
      ["prompt", "--sample", samples.seen, "--kind", "logprob", "--in-context"],
      env,
    );
    expect(printed.stdout).toMatch(
      /^# logprob\/CLASSIFICATION v1, k=0, .*\n\n\[user\]\nseen\d+w0 [^\n]*\n\nseen\d+w0 /,
    );
    const queued = await runCli(
      ["experiment", "--sample", samples.seen, "--provider", "codec", "--model", "cli"].concat([
        "--methods",
        "codec",
        "--yes",
      ]),
      env,
    );
    expect(queued.stdout).toMatch(/queued experiment [0-9a-f-]{36}: 2 runs, 40 completions/);
  });

  /** A dataset of sentences (TS-Guessing masks a word of each), 20 instances sampled; `controlOf` marks a control. */
  async function sentences(name: string, controlOf?: string) {
    const adjectives = ["quiet", "ancient", "bright", "narrow", "wooden", "famous", "silver", "northern"];
    const nouns = ["engineer", "teacher", "painter", "sailor", "farmer", "doctor", "baker"];
    const things = [
      "bridge",
      "museum",
      "garden",
      "railway",
      "harbour",
      "tower",
      "market",
      "chapel",
      "library",
    ];
    const verbs = ["repaired", "painted", "visited", "described", "followed", "opened", "sold", "measured"];
    const lines = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({
        text:
          `Record ${i} of ${name}: the ${adjectives[i % 8]} ${nouns[i % 7]} ${verbs[(i * 3) % 8]} the ` +
          `${things[i % 9]} before ${["winter", "sunrise", "noon", "dinner", "midnight"][i % 5]}.`,
        label: ["alpha", "beta"][i % 2],
      }),
    );
    const imported = await api.gql(
      `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { id } } }`,
      {
        input: {
          name,
          content: `${lines.join("\n")}\n`,
          format: "jsonl",
        },
      },
    );
    expect(imported.errors).toBeUndefined();
    const datasetId = imported.data!.importDataset.dataset.id;
    if (controlOf)
      expect((await api.gql(UPDATE, { input: { id: datasetId, controlOf } })).errors).toBeUndefined();
    const sample = await api.gql(
      `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
      { input: { datasetId, seed: 3, instanceCount: 20, demonstrationCount: 0, shotCounts: [0] } },
    );
    expect(sample.errors).toBeUndefined();
    return { datasetId, sampleId: sample.data!.createSample.sample.id as string };
  }

  it("TS-Guessing: asks for a masked word of each instance, and finds a model that fills in what it saw", async () => {
    const seen = await sentences("guess-seen");
    const fresh = await sentences("guess-fresh", seen.datasetId);
    const query = `query($id: ID!) { studyReport(experimentId: $id) {
      decisions { dataset method verdict errorRate }
      contaminationSummary { dataset tsGuessing { runIds instances notCompared matched matchRate matchRateLow
        matchRateHigh verdict alpha cannotTell test { controlDataset instances controlInstances controlMatchRate auc pValue }
        instanceScores { sampledInstanceId guess matched } } } } }`;
    const study = async (provider: string) => {
      const started = await api.gql(START, {
        input: {
          name: `guessing ${provider}`,
          sampleIds: [seen.sampleId, fresh.sampleId],
          provider,
          model: "m",
          methods: ["TS_GUESSING"],
        },
      });
      expect(started.errors).toBeUndefined();
      const runs = started.data!.startExperiment.runs;
      expect(runs.map((run: any) => [run.kind, run.setting, run.repeats, run.expectedCount])).toEqual(
        Array(2).fill(["GUESSING", null, 1, 20]),
      );
      for (const run of runs) await waitForRun(api, run.id, finished, 120_000);
      const id = started.data!.startExperiment.experiment.id;
      const report = (await api.gql(query, { id })).data!.studyReport;
      return {
        id,
        report,
        row: (name: string) => report.contaminationSummary.find((r: any) => r.dataset === name),
      };
    };
    const recalled = await study("guesses");
    const evidence = recalled.row("guess-seen").tsGuessing;
    expect(evidence).toMatchObject({
      instances: 20,
      notCompared: 0,
      verdict: "CONTAMINATED",
      alpha: 0.05,
      test: { controlDataset: "guess-fresh", instances: 20, controlInstances: 20 },
    });
    expect(evidence.matchRate).toBe(1);
    expect(evidence.test.controlMatchRate).toBeLessThan(0.2);
    expect(
      evidence.instanceScores.every((score: any) => score.matched && /^[a-z]{3,}$/.test(score.guess)),
    ).toBe(true);
    expect(evidence.cannotTell).toMatch(/only the control decides/i);
    expect(recalled.row("guess-fresh").tsGuessing).toMatchObject({ verdict: null, test: null });
    expect(
      recalled.report.decisions
        .filter((d: any) => d.dataset === "guess-seen")
        .map((d: any) => [d.method, d.verdict, d.errorRate]),
    ).toEqual([["ts-guessing", "CONTAMINATED", 0.05]]);
    // A model that answers one word whatever it is asked: right only where that word was masked, alike in both.
    const constant = await study("constant");
    expect(constant.row("guess-seen").tsGuessing).toMatchObject({ matched: 0, verdict: "NO_EVIDENCE" });

    const markdown = await runCli(["report", recalled.id], { DATABASE_URL: api.database.url });
    expect(markdown.stdout).toMatch(
      /contaminated \(AUC [\d.]+ against guess-fresh, p [^;]+; n=20\/20; 20\/20 masked words guessed/,
    );
    const csv = await runCli(["report", recalled.id, "--format", "csv"], { DATABASE_URL: api.database.url });
    expect(csv.stdout).toMatch(/ts_guessing_contaminated/);

    // Its prompt, its price, and the command line.
    const rendered = await api.gql(RENDER, {
      input: { sampleId: seen.sampleId, kind: "GUESSING", shots: 0 },
    });
    expect(rendered.errors).toBeUndefined();
    const [message] = rendered.data!.renderPrompt.messages;
    expect(message.role).toBe("user");
    expect(message.content).toMatch(/^I will give you a text with one word replaced by \[MASK\]\./);
    expect(message.content).toMatch(/\n\nRecord \d+ of guess-seen: [^\n]*\[MASK\][^\n]*\nAnswer:$/);
    const estimate = await api.gql(ESTIMATE, {
      input: { sampleIds: [seen.sampleId], methods: ["TS_GUESSING"] },
    });
    expect(estimate.data!.estimateGrid).toEqual({ calls: 20, rows: [{ kind: "GUESSING" }] });
    const env = { DATABASE_URL: api.database.url, MEMICL_PROVIDERS_FILE: providers };
    const printed = await runCli(["prompt", "--sample", seen.sampleId, "--kind", "guessing"], env);
    expect(printed.stdout).toMatch(/^# guessing\/CLASSIFICATION v1, k=0, /);
    expect(printed.stdout).toMatch(/\[masked word\]\n[A-Za-z]{3,}\n$/);
    const queued = await runCli(
      [
        "experiment",
        "--sample",
        seen.sampleId,
        "--provider",
        "guesses",
        "--model",
        "cli",
        "--methods",
        "ts-guessing",
        "--yes",
      ],
      env,
    );
    expect(queued.stdout).toMatch(/queued experiment [0-9a-f-]{36}: 1 runs?, 20 completions/);
  }, 240_000);

  it("refuses a raw prompt on a provider that cannot continue one, and cdd without the method", async () => {
    const refused = await api.gql(START, {
      input: {
        name: "chat only",
        sampleIds: [samples.seen],
        provider: "chatOnly",
        model: "m",
        methods: ["CDD"],
        cdd: { prompt: "RAW" },
      },
    });
    expect(refused.errors?.[0].message).toMatch(/provider "chatOnly" does not declare completions/);
    const unscored = await api.gql(START, {
      input: {
        name: "no logprobs",
        sampleIds: [samples.seen],
        provider: "chatOnly",
        model: "m",
        methods: ["CODEC"],
      },
    });
    expect(unscored.errors?.[0].message).toMatch(
      /provider "chatOnly" does not declare promptLogprobs: the CODEC method needs the completions endpoint/,
    );
    const misplaced = await api.gql(START, {
      input: {
        name: "no method",
        sampleIds: [samples.seen],
        provider: "recalls",
        model: "m",
        cdd: { samples: 3 },
      },
    });
    expect(misplaced.errors?.[0].message).toMatch(/cdd belongs to the CDD method/);
  });
});
