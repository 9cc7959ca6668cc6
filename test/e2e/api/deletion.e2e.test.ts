import { runCli } from "../../support/cli";
import { BACKENDS } from "../../support/databases";
import { FakeOpenAiServer } from "../../support/fake-openai-server";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const DELETE = (what: string) =>
  `mutation($input: DeleteInput!) { ${what}(input: $input) { dryRun deleted counts { datasets instances samples experiments runs completions judgments queuedJobs } } }`;
const START = `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`;

describe.each(BACKENDS)("deleting experiments, samples and datasets (%s database)", (backend) => {
  let api: TestServer;
  const hanging = new FakeOpenAiServer();
  let sampleId: string;
  let datasetId: string;

  beforeAll(async () => {
    hanging.fallback = { kind: "hang" };
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({
        sim: { type: "simulated" },
        // A model that never answers: its run stays active until cancelled.
        slow: { type: "openai", baseUrl: await hanging.start(), maxConcurrency: 1 },
      }),
      MEMICL_IN_PROCESS_WORKERS: "4",
    });
    sampleId = await classificationSample(api, "doomed", {
      rows: 40,
      instances: 6,
      demonstrations: 2,
      shots: [0],
    });
    datasetId = (await api.gql(`query($id: ID!) { sample(id: $id) { dataset { id } } }`, { id: sampleId }))
      .data!.sample.dataset.id;
  }, 60_000);
  afterAll(async () => {
    // The model that never answers goes first: the server's stop then has no call in flight to give its grace.
    await hanging.stop();
    await api?.close();
  });

  it("refuses to delete an experiment with an active run, and discards its waiting jobs once cancelled", async () => {
    const started = await api.gql(START, {
      input: {
        name: "slow",
        sampleIds: [sampleId],
        provider: "slow",
        model: "m",
        kinds: ["MEMORIZATION"],
        settings: ["FULL_INFORMATION"],
      },
    });
    const experimentId = started.data!.startExperiment.experiment.id;
    const refused = await api.gql(DELETE("deleteExperiment"), { input: { id: experimentId } });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: "CONFLICT", activeRuns: 1 });
    expect(refused.errors?.[0].message).toMatch(/active run.*cancel them first/);
    // A dry run answers anyway, saying why the delete would be refused now.
    const blocked = await api.gql(
      `mutation($input: DeleteInput!) { deleteExperiment(input: $input) { deleted blockedBy counts { runs } } }`,
      { input: { id: experimentId, dryRun: true } },
    );
    expect(blocked.data!.deleteExperiment).toEqual({
      deleted: false,
      blockedBy: expect.stringMatching(/active run/),
      counts: { runs: 1 },
    });
    for (const run of started.data!.startExperiment.runs)
      await api.gql(`mutation($id: ID!) { cancelRun(input: { runId: $id }) { run { id } } }`, { id: run.id });
    const dry = await api.gql(DELETE("deleteExperiment"), { input: { id: experimentId, dryRun: true } });
    expect(dry.data!.deleteExperiment).toMatchObject({
      dryRun: true,
      deleted: false,
      counts: { experiments: 1, runs: 1, completions: 6 },
    });
    const deleted = await api.gql(DELETE("deleteExperiment"), { input: { id: experimentId } });
    expect(deleted.data!.deleteExperiment).toMatchObject({
      deleted: true,
      counts: { experiments: 1, runs: 1, completions: 6 },
    });
    // Jobs of a cancelled run may still wait in the queue; they went with it. The server's own workers may drop
    // some of them (their run is cancelled) between the dry run and the delete, never add any.
    expect(deleted.data!.deleteExperiment.counts.queuedJobs).toBeLessThanOrEqual(
      dry.data!.deleteExperiment.counts.queuedJobs,
    );
    const [{ count }] = await api.database.dataSource.query(
      "SELECT count(*)::int AS count FROM pgboss.job WHERE state IN ('created', 'retry') AND data->>'provider' = 'slow'",
    );
    expect(count).toBe(0);
  }, 60_000);

  it("says what would go with dryRun, deletes it all without, and refuses samples and datasets still in use", async () => {
    const started = await api.gql(START, {
      input: { name: "done", sampleIds: [sampleId], provider: "sim", model: "m", performanceRepeats: 1 },
    });
    const experimentId = started.data!.startExperiment.experiment.id;
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished);

    for (const [what, id] of [
      ["deleteSample", sampleId],
      ["deleteDataset", datasetId],
    ]) {
      const used = await api.gql(DELETE(what), { input: { id } });
      expect(used.errors?.[0].extensions?.code).toBe("CONFLICT");
      expect(used.errors?.[0].message).toContain(experimentId);
    }

    const listed = await runCli(["experiments"], { DATABASE_URL: api.database.url });
    expect(listed.stdout).toMatch(
      new RegExp(`${experimentId}  done  sim/m .* 5 runs \\(SUCCEEDED 5\\)  30/30 done, 0 failed`),
    );

    const dry = await api.gql(DELETE("deleteExperiment"), { input: { id: experimentId, dryRun: true } });
    expect(dry.data!.deleteExperiment).toEqual({
      dryRun: true,
      deleted: false,
      counts: {
        datasets: 0,
        instances: 0,
        samples: 0,
        experiments: 1,
        runs: 5,
        completions: 30,
        judgments: 24,
        queuedJobs: 0,
      },
    });
    expect(
      (await api.gql(`query($id: ID!) { experiment(id: $id) { id } }`, { id: experimentId })).data!.experiment
        .id,
    ).toBe(experimentId);
    const deleted = await api.gql(DELETE("deleteExperiment"), { input: { id: experimentId } });
    expect(deleted.data!.deleteExperiment).toMatchObject({
      deleted: true,
      counts: { runs: 5, completions: 30 },
    });
    const gone = await api.gql(`query($id: ID!) { experiment(id: $id) { id } }`, { id: experimentId });
    expect(gone.errors?.[0].extensions?.code).toBe("NOT_FOUND");

    const dataset = await api.gql(DELETE("deleteDataset"), { input: { id: datasetId } });
    expect(dataset.data!.deleteDataset).toMatchObject({
      deleted: true,
      counts: { datasets: 1, instances: 40, samples: 1 },
    });
    const missing = await api.gql(DELETE("deleteSample"), { input: { id: sampleId } });
    expect(missing.errors?.[0].extensions?.code).toBe("NOT_FOUND");
  }, 90_000);
});
