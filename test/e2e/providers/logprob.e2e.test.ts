import { runCli } from "../../support/cli";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const DATASETS = `{ datasets(first: 50) { edges { node { id name } } } }`;
const UPDATE = `mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { name } }`;
const START = `mutation($input: StartExperimentInput!) {
  startExperiment(input: $input) { experiment { id } runs { id kind provider model } } }`;
const SUMMARY = `query($id: ID!) { studyReport(experimentId: $id) {
  logprobCalibration { group score members nonMembers auc aucLow aucHigh tprAt1PercentFpr tprAt5PercentFpr }
  contaminationSummary { dataset sampleId logprob { runIds member verdict alpha cannotTell
    scores { score instances mean } tests { score controlDataset instances controlInstances auc pValue } } } } }`;

/** A model that saw "seen" (member log-probabilities around -0.4) and never "fresh" (around -2.4). */
const RECALLS = {
  memberLogprob: -0.4,
  nonMemberLogprob: -2.4,
  logprobSpread: 1,
  unseenDatasets: ["fresh"],
  seed: 2,
};
/** The null: the same distribution for what it saw and what it did not. */
const NULL = {
  memberLogprob: -1.5,
  nonMemberLogprob: -1.5,
  logprobSpread: 1,
  unseenDatasets: ["fresh"],
  seed: 3,
};

describe("the LOGPROB method (embedded database)", () => {
  let api: TestServer;
  const samples: Record<string, string> = {};

  beforeAll(async () => {
    api = await startTestServer("embedded", {
      MEMICL_PROVIDERS_FILE: providersFile({
        recalls: { type: "simulated", simulation: RECALLS },
        nothing: { type: "simulated", simulation: NULL },
        reference: { type: "simulated", simulation: NULL },
        // An OpenAI-compatible server that was not declared to return prompt log-probabilities.
        chatOnly: { type: "openai", baseUrl: "http://127.0.0.1:9/v1" },
      }),
      MEMICL_IN_PROCESS_WORKERS: "8",
    });
    for (const name of ["seen", "fresh"])
      samples[name] = await classificationSample(api, name, {
        rows: 120,
        instances: 40,
        demonstrations: 0,
        shots: [0],
      });
    const datasets = (await api.gql(DATASETS)).data!.datasets.edges.map((edge: any) => edge.node);
    const id = (name: string) => datasets.find((d: any) => d.name === name).id;
    const marked = await api.gql(UPDATE, { input: { id: id("fresh"), controlOf: id("seen") } });
    expect(marked.errors).toBeUndefined();
  }, 120_000);
  afterAll(() => api?.close());

  async function study(provider: string, extra: Record<string, unknown> = {}) {
    const started = await api.gql(START, {
      input: {
        name: `logprob ${provider}`,
        sampleIds: [samples.seen, samples.fresh],
        provider,
        model: "m",
        methods: ["LOGPROB"],
        ...extra,
      },
    });
    expect(started.errors).toBeUndefined();
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 120_000);
    const id = started.data!.startExperiment.experiment.id;
    return {
      id,
      runs: started.data!.startExperiment.runs,
      report: (await api.gql(SUMMARY, { id })).data!.studyReport,
    };
  }

  it("finds a model that scores what it saw above its control, and not the null", async () => {
    const recalled = await study("recalls");
    expect(recalled.runs.map((run: any) => run.kind)).toEqual(["LOGPROB", "LOGPROB"]);
    const seen = recalled.report.contaminationSummary.find((row: any) => row.dataset === "seen").logprob;
    expect(seen.verdict).toBe("CONTAMINATED");
    const minK = seen.tests.find((test: any) => test.score === "minK");
    expect(minK).toMatchObject({ controlDataset: "fresh", instances: 40, controlInstances: 40 });
    expect(minK.pValue).toBeLessThan(0.001);
    expect(minK.auc).toBeGreaterThan(0.9);
    expect(seen.scores.map((score: any) => score.score)).toEqual(["loss", "zlib", "minK", "minKPlusPlus"]);
    expect(seen.cannotTell).toMatch(/paraphrase/);
    // The control itself has no control: scores, no verdict.
    const fresh = recalled.report.contaminationSummary.find((row: any) => row.dataset === "fresh").logprob;
    expect(fresh).toMatchObject({ verdict: null, tests: [] });

    const none = await study("nothing");
    const nullRow = none.report.contaminationSummary.find((row: any) => row.dataset === "seen").logprob;
    expect(nullRow.verdict).toBe("NO_EVIDENCE");
  }, 240_000);

  it("calibrates each score on labelled members and non-members, with a reference model", async () => {
    const labelled = await study("recalls", {
      membership: [
        { sampleId: samples.seen, member: true, group: "toy" },
        { sampleId: samples.fresh, member: false, group: "toy" },
      ],
      logprobReference: { provider: "reference", model: "r" },
    });
    expect(labelled.runs.map((run: any) => `${run.kind} ${run.provider}`).sort()).toEqual([
      "LOGPROB recalls",
      "LOGPROB recalls",
      "LOGPROB reference",
      "LOGPROB reference",
    ]);
    const rows = labelled.report.logprobCalibration;
    expect(rows.map((row: any) => row.score)).toEqual(["loss", "zlib", "minK", "minKPlusPlus", "reference"]);
    for (const row of rows) {
      expect(row).toMatchObject({ group: "toy", members: 40, nonMembers: 40 });
      expect(row.auc).toBeGreaterThan(0.95);
      expect(row.aucLow).toBeLessThanOrEqual(row.auc);
      expect(row.tprAt5PercentFpr).toBeGreaterThan(0.5);
    }
    const markdown = await runCli(["report", labelled.id], { DATABASE_URL: api.database.url });
    expect(markdown.stdout).toContain("## Logprob calibration");
    expect(markdown.stdout).toMatch(/\| toy +\| minK +\| 40 +\| 40 +\|/);
  }, 240_000);

  it("refuses a provider that cannot return prompt log-probabilities, before any run starts", async () => {
    const refused = await api.gql(START, {
      input: {
        name: "chat only",
        sampleIds: [samples.seen],
        provider: "chatOnly",
        model: "m",
        methods: ["LOGPROB"],
      },
    });
    expect(refused.errors?.[0].message).toMatch(/provider "chatOnly" does not declare promptLogprobs/);
    const misplaced = await api.gql(START, {
      input: {
        name: "labels without the method",
        sampleIds: [samples.seen],
        provider: "recalls",
        model: "m",
        membership: [{ sampleId: samples.seen, member: true }],
      },
    });
    expect(misplaced.errors?.[0].message).toMatch(/belong to the LOGPROB method/);
  });
});
