import { OptionSetService } from "../../../src/option-set/option-set.service";
import { BACKENDS } from "../../support/databases";
import { classificationSample, providersFile } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const START = `mutation($input: StartExperimentInput!) {
  startExperiment(input: $input) { experiment { id } runs { id kind quizPosition optionSetId expectedCount } } }`;

const RUNS = `query($id: ID!) { experiment(id: $id) { runs {
  id kind status quizPosition optionSetId expectedCount doneCount failedCount promptTokens waitingReason lastError } } }`;

const QUIZ = `query($id: ID!) { quizResults(experimentId: $id) {
  dataset optionSetId generatorProvider generatorModel instances sampledInstances optionsGivenUp rejectedGenerations
  originalAmongOptions bias biasUnreadable nonPreferred compensators { letter nonPreferred hits answers unreadable failed }
  upper lower kappa best second complete notes } }`;

const SUMMARY = `query($id: ID!) { contaminationSummary(experimentId: $id) {
  dataset split timeTravel { contaminated } replication { signal } guidedGeneral { significant }
  quiz { runIds cannotTell range { instances lower upper kappa } } } }`;

const ENDED = ["SUCCEEDED", "FAILED", "CANCELLED"];

async function waitForExperiment(api: TestServer, id: string, timeoutMs = 100_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api.gql(RUNS, { id });
    const runs = response.data?.experiment.runs ?? [];
    if (runs.length > 0 && runs.every((run: any) => ENDED.includes(run.status))) return runs;
    if (Date.now() > deadline) throw new Error(`experiment did not finish: ${JSON.stringify(runs)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Within `sds` standard errors of a binomial share p over n draws. */
const near = (value: number, p: number, n: number, sds = 4) =>
  Math.abs(value - p) <= sds * Math.sqrt((p * (1 - p)) / n) + 1 / n;

describe.each(BACKENDS)("the Data Contamination Quiz (%s)", (backend) => {
  let api: TestServer;

  beforeAll(async () => {
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({
        // Recognises half of the instances; otherwise answers A (which it prefers) 30% of the time, C 5%, E else.
        // A third of its option generations carry the original in place of option D (the released files' defect).
        seen: {
          type: "simulated",
          simulation: {
            quizContamination: 0.5,
            quizBias: { A: 0.3, B: 0, C: 0.05, D: 0, E: 0.65 },
            optionDefectRate: 0.35,
            seed: 3,
          },
        },
        // Never recognises an instance: a null configuration.
        unseen: { type: "simulated", simulation: { quizContamination: 0, seed: 5 } },
        // Writes the original among its options every time.
        careless: { type: "simulated", simulation: { optionDefectRate: 1, seed: 7 } },
      }),
      MEMICL_IN_PROCESS_WORKERS: "8",
    });
  });
  afterAll(() => api?.close());

  it("generates checked options, quizzes at every letter, and recovers the configured contamination", async () => {
    const sampleId = await classificationSample(api, `quiz${backend}`, {
      rows: 160,
      instances: 80,
      demonstrations: 4,
      shots: [0],
    });
    const estimate = (
      await api.gql(
        `query($input: EstimateGridInput!) { estimateGrid(input: $input) {
          calls maxCalls rows { kind quizPosition calls maxCalls } } }`,
        { input: { sampleIds: [sampleId], methods: ["QUIZ"] } },
      )
    ).data!.estimateGrid;
    // Option generation once per instance (three times at most), the detector and four compensators.
    expect(estimate.rows.map((row: any) => [row.kind, row.quizPosition, row.calls, row.maxCalls])).toEqual([
      ["QUIZ_OPTIONS", null, 80, 240],
      ["QUIZ", null, 80, 80],
      ["QUIZ", "A", 80, 80],
      ["QUIZ", "B", 80, 80],
      ["QUIZ", "C", 80, 80],
      ["QUIZ", "D", 80, 80],
    ]);
    expect([estimate.calls, estimate.maxCalls]).toEqual([480, 640]);
    const started = await api.gql(START, {
      input: { name: "quiz", sampleIds: [sampleId], provider: "seen", model: "m", methods: ["QUIZ"] },
    });
    expect(started.errors).toBeUndefined();
    const created = started.data!.startExperiment.runs;
    expect(created.map((run: any) => [run.kind, run.quizPosition])).toEqual([
      ["QUIZ_OPTIONS", null],
      ["QUIZ", null],
      ["QUIZ", "A"],
      ["QUIZ", "B"],
      ["QUIZ", "C"],
      ["QUIZ", "D"],
    ]);
    const experimentId = started.data!.startExperiment.experiment.id;
    const runs = await waitForExperiment(api, experimentId);
    expect(runs.map((run: any) => run.status)).toEqual(Array(6).fill("SUCCEEDED"));
    const generation = runs.find((run: any) => run.kind === "QUIZ_OPTIONS");

    const [row] = (await api.gql(QUIZ, { id: experimentId })).data!.quizResults;
    // Rejected generations were generated again: each one more item of the generation run.
    expect(row.rejectedGenerations).toBeGreaterThan(5);
    expect(generation.expectedCount).toBe(80 + row.rejectedGenerations - row.optionsGivenUp);
    expect(generation.doneCount).toBe(generation.expectedCount);
    // The calls made are the estimate's, the regenerations within its bound, the instances given up not quizzed.
    const made = runs.reduce((sum: number, run: any) => sum + run.doneCount, 0);
    expect(made).toBe(480 + row.rejectedGenerations - row.optionsGivenUp - 5 * row.optionsGivenUp);
    expect(made).toBeLessThanOrEqual(estimate.maxCalls);
    // Every rejection here is the defect: the original among the options.
    expect(row.originalAmongOptions).toBe(row.rejectedGenerations);
    expect(row.instances + row.optionsGivenUp).toBe(80);
    expect(row.instances).toBeGreaterThan(65);
    // Quizzes were made only for instances with valid options; the others were left out of the quiz.
    for (const run of runs.filter((candidate: any) => candidate.kind === "QUIZ"))
      expect(run).toMatchObject({ expectedCount: row.instances, doneCount: row.instances, failedCount: 0 });
    expect(row.complete).toBe(true);
    expect(row.bias.reduce((sum: number, count: number) => sum + count, 0)).toBe(row.instances);
    // A is preferred (chosen more often than chance, a fifth); B-D are not, so they carry the range, and kappa
    // corrects C's hits for its bias.
    expect(row.nonPreferred).toEqual(["B", "C", "D"]);
    expect(row.compensators.map((compensator: any) => compensator.nonPreferred)).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(near(row.kappa, 0.5, row.instances)).toBe(true);
    expect(row.lower).toBeLessThanOrEqual(row.upper);
    expect(near(row.upper, 0.5, row.instances)).toBe(true);

    // The option set is an artifact of its own: its generator, prompt version and every instance's options.
    const sets = await api.gql(
      `query($sample: ID!) { quizOptionSets(sampleId: $sample) { id provider model templateVersion maxGenerations
        counts { instances valid givenUp waiting rejectedGenerations }
        options(first: 80) { sampledInstanceId options generations valid final problems rejections } } }`,
      { sample: sampleId },
    );
    expect(sets.errors).toBeUndefined();
    const [set] = sets.data!.quizOptionSets;
    expect(set).toMatchObject({
      id: row.optionSetId,
      provider: "seen",
      model: "m",
      templateVersion: 1,
      maxGenerations: 3,
    });
    expect(set.counts).toEqual({
      instances: 80,
      valid: row.instances,
      givenUp: row.optionsGivenUp,
      waiting: 0,
      rejectedGenerations: row.rejectedGenerations,
    });
    expect(set.options).toHaveLength(80);
    for (const option of set.options.filter((candidate: any) => candidate.valid)) {
      expect(option.options).toHaveLength(4);
      expect(new Set(option.options).size).toBe(4);
      expect(option.rejections).toHaveLength(option.generations - 1);
    }

    const [summary] = (await api.gql(SUMMARY, { id: experimentId })).data!.contaminationSummary;
    expect(summary.timeTravel).toBeNull();
    expect(summary.guidedGeneral).toBeNull();
    expect(summary.quiz.range.instances).toBe(row.instances);
    expect(summary.quiz.runIds).toHaveLength(6);
    expect(summary.quiz.cannotTell).toMatch(/option/);

    // Another examined model on the same sample reuses the option set by default (no generator named): no
    // generation run, the same quizzes; the estimate counts no generation either.
    const estimateAgain = (
      await api.gql(
        `query($input: EstimateGridInput!) { estimateGrid(input: $input) {
          calls maxCalls rows { kind quizPosition calls maxCalls } } }`,
        { input: { sampleIds: [sampleId], methods: ["QUIZ"] } },
      )
    ).data!.estimateGrid;
    expect(estimateAgain.rows[0]).toMatchObject({ kind: "QUIZ_OPTIONS", calls: 0, maxCalls: 0 });
    expect([estimateAgain.calls, estimateAgain.maxCalls]).toEqual([400, 400]);
    const again = await api.gql(START, {
      input: {
        name: "quiz, unseen",
        sampleIds: [sampleId],
        provider: "unseen",
        model: "m",
        methods: ["QUIZ"],
      },
    });
    expect(again.errors).toBeUndefined();
    const reused = again.data!.startExperiment.runs;
    expect(reused.map((run: any) => run.kind)).toEqual(Array(5).fill("QUIZ"));
    expect(new Set(reused.map((run: any) => run.optionSetId))).toEqual(new Set([created[0].optionSetId]));
    const otherId = again.data!.startExperiment.experiment.id;
    await waitForExperiment(api, otherId);
    const [nullRow] = (await api.gql(QUIZ, { id: otherId })).data!.quizResults;
    expect(nullRow.optionSetId).toBe(row.optionSetId);
    expect(nullRow.instances).toBe(row.instances);
    expect(nullRow.upper).toBeLessThan(0.15);
  }, 240_000);

  it("rejects options that hold the original before any quiz call, and says why", async () => {
    const sampleId = await classificationSample(api, `careless${backend}`, {
      rows: 40,
      instances: 10,
      demonstrations: 2,
      shots: [0],
    });
    const started = await api.gql(START, {
      input: {
        name: "careless",
        sampleIds: [sampleId],
        provider: "seen",
        model: "m",
        methods: ["QUIZ"],
        quizGenerator: { provider: "careless", model: "g", generations: 2 },
      },
    });
    expect(started.errors).toBeUndefined();
    const runs = await waitForExperiment(api, started.data!.startExperiment.experiment.id);
    const generation = runs.find((run: any) => run.kind === "QUIZ_OPTIONS");
    expect(generation).toMatchObject({ status: "SUCCEEDED", expectedCount: 20, doneCount: 20 });
    // No quiz call was made: every instance's options were rejected, so none was quizzed.
    for (const run of runs.filter((candidate: any) => candidate.kind === "QUIZ"))
      expect(run).toMatchObject({ status: "SUCCEEDED", expectedCount: 0, doneCount: 0, promptTokens: 0 });
    const [row] = (await api.gql(QUIZ, { id: started.data!.startExperiment.experiment.id })).data!
      .quizResults;
    expect(row).toMatchObject({
      instances: 0,
      optionsGivenUp: 10,
      rejectedGenerations: 20,
      originalAmongOptions: 20,
    });
    expect(row.upper).toBeNull();
    expect(row.notes.join(" ")).toMatch(/10 instance\(s\) had no usable options after 2 generation\(s\)/);

    // Which quizzes an estimate counts no generation for: the named generator's set, of the prompt version it was
    // made with; another generator, generation count or version has none yet.
    const reuse = new OptionSetService(api.database.dataSource);
    const [{ version }] = await api.database.dataSource.query(
      "SELECT template_version AS version FROM quiz_option_set WHERE sample_id = $1",
      [sampleId],
    );
    const named = (provider: string, generations: number) => ({ provider, model: "g", generations });
    expect(await reuse.reusedBy([sampleId], version, named("careless", 2))).toEqual(new Set([sampleId]));
    expect(await reuse.reusedBy([sampleId], version, null)).toEqual(new Set([sampleId]));
    expect(await reuse.reusedBy([sampleId], version, named("careless", 3))).toEqual(new Set());
    expect(await reuse.reusedBy([sampleId], version, named("seen", 2))).toEqual(new Set());
    expect(await reuse.reusedBy([sampleId], version + 1, null)).toEqual(new Set());

    // Deleting the experiment, then the sample, takes the option set and its options with them.
    const removeExperiment = await api.gql(
      `mutation($input: DeleteInput!) { deleteExperiment(input: $input) { deleted counts { runs } } }`,
      { input: { id: started.data!.startExperiment.experiment.id } },
    );
    expect(removeExperiment.errors).toBeUndefined();
    expect(removeExperiment.data!.deleteExperiment.counts.runs).toBe(6);
    const removeSample = await api.gql(
      `mutation($input: DeleteInput!) { deleteSample(input: $input) { deleted counts { samples } } }`,
      { input: { id: sampleId } },
    );
    expect(removeSample.errors).toBeUndefined();
    const [{ count }] = await api.database.dataSource.query(
      "SELECT count(*)::int AS count FROM quiz_option_set WHERE sample_id = $1",
      [sampleId],
    );
    expect(count).toBe(0);
  }, 120_000);

  it("refuses quiz kinds outside the quiz method", async () => {
    const sampleId = await classificationSample(api, `refused${backend}`, {
      rows: 20,
      instances: 4,
      demonstrations: 2,
      shots: [0],
    });
    const refused = await api.gql(START, {
      input: { name: "x", sampleIds: [sampleId], provider: "seen", model: "m", kinds: ["QUIZ"] },
    });
    expect(refused.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
    expect(refused.errors?.[0].message).toMatch(/methods: \[QUIZ\]/);
  });
});
