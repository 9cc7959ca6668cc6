import { SimulatedProvider } from "../../../src/llm/simulated-provider";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const SIMULATION = {
  memorizedAtZeroShot: 0.4,
  memorizedAtManyShots: 0.8,
  halfRiseShots: 5,
  nearExactShare: 0,
  seed: 4,
  // The control's data came out after the model's cutoff: it remembers none of it.
  unseenDatasets: ["fresh"],
};

/** A model the guided instruction helps and the general one does not: a setting effect to recover. */
const SHIFTED = {
  memorizedAtZeroShot: 0.3,
  memorizedAtManyShots: 0.5,
  halfRiseShots: 10,
  nearExactShare: 0,
  seed: 9,
  settingShift: { FULL_INFORMATION: 0.3, GENERAL_INSTRUCTION: -0.2 },
};

const DATASET = `query($name: String!) { datasets(filter: { nameContains: $name }) { edges { node { id name controlOf { name } } } } }`;
const UPDATE = `mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { name controlOf { name } } }`;

/** A control dataset through the API: marked, checked, run on the same grid, and set against in the report. */
describe("a control dataset (embedded database)", () => {
  let api: TestServer;
  const idOf = async (name: string) =>
    (await api.gql(DATASET, { name })).data!.datasets.edges.find((edge: any) => edge.node.name === name).node
      .id as string;

  beforeAll(async () => {
    api = await startTestServer("embedded", {
      MEMICL_PROVIDERS_FILE: providersFile({
        sim: { type: "simulated", simulation: SIMULATION },
        shifted: { type: "simulated", simulation: SHIFTED },
      }),
      MEMICL_IN_PROCESS_WORKERS: "8",
    });
  });
  afterAll(() => api?.close());

  it("sets each rate against its control's, with the difference's interval, and refuses bad marks", async () => {
    const shots = [0, 10];
    const studied = await classificationSample(api, "studied", {
      rows: 160,
      instances: 60,
      demonstrations: 10,
      shots,
    });
    const control = await classificationSample(api, "fresh", {
      rows: 160,
      instances: 60,
      demonstrations: 10,
      shots,
    });
    const [studiedId, freshId] = [await idOf("studied"), await idOf("fresh")];

    const marked = await api.gql(UPDATE, { input: { id: freshId, controlOf: studiedId } });
    expect(marked.errors).toBeUndefined();
    expect(marked.data!.updateDataset).toEqual({ name: "fresh", controlOf: { name: "studied" } });
    for (const [input, message] of [
      [{ id: freshId, controlOf: freshId }, /cannot be its own control/],
      [{ id: studiedId, controlOf: freshId }, /"fresh" is itself a control/],
      [{ id: freshId, controlOf: "00000000-0000-0000-0000-000000000000" }, /does not exist/],
    ] as const) {
      const refused = await api.gql(UPDATE, { input });
      expect(refused.errors?.[0].message).toMatch(message);
    }
    // A refused change changed nothing.
    expect((await api.gql(DATASET, { name: "fresh" })).data!.datasets.edges[0].node.controlOf).toEqual({
      name: "studied",
    });

    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "with a control",
          sampleIds: [studied, control],
          kinds: ["MEMORIZATION"],
          settings: ["FULL_INFORMATION", "GENERAL_INSTRUCTION"],
          provider: "sim",
          model: "m",
        },
      },
    );
    expect(started.errors).toBeUndefined();
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 120_000);
    const experimentId = started.data!.startExperiment.experiment.id;
    const report = await api.gql(
      `query($id: ID!) { studyReport(experimentId: $id) { versusControl { dataset controlDataset setting shots instances memorized rate controlInstances controlMemorized controlRate difference differenceCiLow differenceCiHigh pValue pValueHolm } } }`,
      { id: experimentId },
    );
    expect(report.errors).toBeUndefined();
    const rows = report.data!.studyReport.versusControl;
    expect(
      rows.map((row: any) => `${row.dataset}/${row.controlDataset}/${row.setting}/${row.shots}`),
    ).toEqual([
      "studied/fresh/FULL_INFORMATION/0",
      "studied/fresh/FULL_INFORMATION/10",
      "studied/fresh/GENERAL_INSTRUCTION/0",
      "studied/fresh/GENERAL_INSTRUCTION/10",
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ instances: 60, controlInstances: 60, controlMemorized: 0, controlRate: 0 });
      const configured = SimulatedProvider.rates(SIMULATION, row.shots).memorized;
      // The configured difference (the control remembers nothing) lies inside the reported interval. The draws
      // are deterministic (one seed); coverage over many seeds is test/unit/methods/simulation.test.ts's.
      expect(row.differenceCiLow).toBeLessThanOrEqual(configured);
      expect(row.differenceCiHigh).toBeGreaterThanOrEqual(configured);
      expect(row.difference).toBeCloseTo(row.rate - row.controlRate, 12);
      expect(row.pValue).toBeLessThan(0.001);
      expect(row.pValueHolm).toBeGreaterThanOrEqual(row.pValue);
    }

    // No configured setting effect: the two instructions get the same answers, and Algorithm 1 finds nothing.
    const null_ = await api.gql(
      `query($id: ID!) { guidedVsGeneral(experimentId: $id) { dataset shots difference pValuePaired significant } }`,
      { id: experimentId },
    );
    expect(null_.errors).toBeUndefined();
    expect(null_.data!.guidedVsGeneral).toHaveLength(4);
    for (const row of null_.data!.guidedVsGeneral)
      expect(row).toMatchObject({ difference: 0, pValuePaired: 1, significant: false });
    // Its rows are kept while the runs stand still, and computed again when one changes: here the general runs'
    // answers are blanked (and the runs touched, as every write to them does), their stored scores dropped as an
    // answer stored before scores were has none (the report computes those from the text).
    await api.database.dataSource.query(
      `UPDATE completion c SET output = '', extracted_answer = '', rouge_l = NULL FROM run r
       WHERE c.run_id = r.id AND r.experiment_id = $1 AND r.setting = 'GENERAL_INSTRUCTION'`,
      [experimentId],
    );
    await api.database.dataSource.query(
      "UPDATE run SET updated_at = now() WHERE experiment_id = $1 AND setting = 'GENERAL_INSTRUCTION'",
      [experimentId],
    );
    const changed = await api.gql(
      `query($id: ID!) { guidedVsGeneral(experimentId: $id) { dataset generalMean difference } }`,
      { id: experimentId },
    );
    for (const row of changed.data!.guidedVsGeneral) {
      expect(row.generalMean).toBe(0);
      // The studied dataset's guided answers are remembered ones; the control's are not (both are 0 there).
      if (row.dataset === "studied") expect(row.difference).toBeGreaterThan(0);
      else expect(row.difference).toBe(0);
    }

    const metrics = await api.gql(
      `query($id: ID!) { reportRows(filter: { experimentId: $id, names: ["versus_control.difference"] }) { edges { node { value ciLow scope { dataset otherDataset setting shots } } } } }`,
      { id: experimentId },
    );
    expect(metrics.errors).toBeUndefined();
    expect(metrics.data!.reportRows.edges).toHaveLength(4);
    expect(metrics.data!.reportRows.edges[0].node.scope).toMatchObject({
      dataset: "studied",
      otherDataset: "fresh",
    });

    const cleared = await api.gql(UPDATE, { input: { id: freshId, controlOf: null } });
    expect(cleared.data!.updateDataset.controlOf).toBeNull();
    // The mark is part of the results' state: the report read before it is not served again.
    const unmarked = await api.gql(
      `query($id: ID!) { studyReport(experimentId: $id) { versusControl { dataset } } }`,
      { id: experimentId },
    );
    expect(unmarked.data!.studyReport.versusControl).toEqual([]);
  }, 180_000);

  it("recovers a configured setting effect: every cell inside its interval, guided above general", async () => {
    const sampleId = await classificationSample(api, "shifted", {
      rows: 240,
      instances: 100,
      demonstrations: 10,
      shots: [0, 10],
    });
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "a setting effect",
          sampleIds: [sampleId],
          kinds: ["MEMORIZATION"],
          settings: ["FULL_INFORMATION", "SEGMENT_PAIRS_AND_LABELS", "GENERAL_INSTRUCTION"],
          provider: "shifted",
          model: "m",
        },
      },
    );
    expect(started.errors).toBeUndefined();
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 120_000);
    const report = await api.gql(
      `query($id: ID!) { studyReport(experimentId: $id) {
        memorization { sampleId setting shots n rate ciLow ciHigh }
        settingComparisons { settingA settingB shotsA difference pValue }
        guidedVsGeneral { split shots instances guidedMean generalMean difference pValuePaired pValueUnpaired significant resamples } } }`,
      { id: started.data!.startExperiment.experiment.id },
    );
    expect(report.errors).toBeUndefined();
    const { memorization, settingComparisons, guidedVsGeneral } = report.data!.studyReport;
    // Time Travel's Algorithm 1 finds the guided instruction's advantage by ROUGE-L at every k.
    expect(guidedVsGeneral.map((row: any) => row.shots)).toEqual([0, 10]);
    for (const row of guidedVsGeneral) {
      expect(row).toMatchObject({ split: "train", instances: 100, significant: true, resamples: 10_000 });
      expect(row.guidedMean - row.generalMean).toBeGreaterThan(0.3);
      expect(row.pValuePaired).toBeLessThan(0.001);
      expect(row.pValueUnpaired).toBeLessThan(0.001);
    }
    // Each answer's ROUGE-L is stored with it; the guided mean at k = 0 is the mean of the stored scores.
    const guidedRun = started.data!.startExperiment.runs[0].id;
    const scores = (
      await api.gql(
        `query($id: ID!) { run(id: $id) { setting shots completions(first: 200) { edges { node { rougeL } } } } }`,
        { id: guidedRun },
      )
    ).data!.run;
    expect([scores.setting, scores.shots]).toEqual(["FULL_INFORMATION", 0]);
    const stored = scores.completions.edges.map((edge: any) => edge.node.rougeL);
    expect(stored.every((score: unknown) => typeof score === "number")).toBe(true);
    const mean = stored.reduce((sum: number, score: number) => sum + score, 0) / stored.length;
    expect(mean).toBeCloseTo(guidedVsGeneral[0].guidedMean, 5);
    expect(memorization).toHaveLength(6);
    let covered = 0;
    for (const row of memorization) {
      const configured = SimulatedProvider.rates(SHIFTED, row.shots, row.setting).memorized;
      if (row.ciLow <= configured && configured <= row.ciHigh) covered += 1;
    }
    // Six 95% intervals over the same instances' draws: all of them, or all but one, cover.
    expect(covered).toBeGreaterThanOrEqual(5);
    for (const shots of [0, 10]) {
      const guidedVsGeneral = settingComparisons.find(
        (row: any) =>
          row.settingA === "FULL_INFORMATION" &&
          row.settingB === "GENERAL_INSTRUCTION" &&
          row.shotsA === shots,
      );
      // Configured: +0.5 (0.3 up, 0.2 down); found large and significant on the same instances.
      expect(guidedVsGeneral.difference).toBeGreaterThan(0.3);
      expect(guidedVsGeneral.pValue).toBeLessThan(0.001);
    }
  }, 180_000);
});
