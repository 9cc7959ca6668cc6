import { runCli } from "../../support/cli";
import { BACKENDS } from "../../support/databases";
import { FakeOpenAiServer } from "../../support/fake-openai-server";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/**
 * Which providers exist is a fact of the workers that can call them: a shell without the providers file queues
 * work for a provider a live worker registered, and is told plainly when none can call it.
 */
describe.each(BACKENDS)("providers known where the work is done (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let sampleId: string;
  let shell: Record<string, string>;

  beforeAll(async () => {
    const url = await fake.start();
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({
        "local-vllm": { type: "openai", baseUrl: url, maxConcurrency: 4 },
      }),
      MEMICL_IN_PROCESS_WORKERS: "4",
    });
    sampleId = await classificationSample(api, "elsewhere", {
      rows: 20,
      instances: 4,
      demonstrations: 0,
      shots: [0],
    });
    // The shell has no providers file: it knows only the built-in simulated provider.
    shell = { DATABASE_URL: api.database.url, MEMICL_PROVIDERS_FILE: "" };
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await fake.stop();
  });

  it("queues work from a shell without the providers file for a provider a live worker can call", async () => {
    const queued = await runCli(
      [
        "experiment",
        "--sample",
        sampleId,
        "--provider",
        "local-vllm",
        "--model",
        "m",
        "--kinds",
        "memorization",
        "--settings",
        "only-segment-pairs",
      ],
      shell,
    );
    expect(queued.stderr).toBe("");
    expect(queued.code).toBe(0);
    const experimentId = /experiment ([0-9a-f-]{36}): 1 runs/.exec(queued.stdout)![1];
    const runs = await api.gql(`query($id: ID!) { experiment(id: $id) { runs { id } } }`, {
      id: experimentId,
    });
    const done = await waitForRun(api, runs.data!.experiment.runs[0].id, finished, 30_000);
    expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 4 });

    const providers = await runCli(["providers"], shell);
    expect(providers.stdout).toMatch(
      /^local-vllm \(unknown here\): NOT usable here: not configured in this process.*live workers that can call it: 1$/m,
    );
  }, 60_000);

  it("refuses a provider nobody can call, naming the variable and the live workers", async () => {
    const refused = await runCli(
      ["experiment", "--sample", sampleId, "--provider", "nowhere", "--model", "m"],
      shell,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /no provider named "nowhere" \(configured: simulated; this process reads providers from MEMICL_PROVIDERS_FILE\), and no live worker on this database can call it \(live workers: serve \(local-vllm, simulated\)\)/,
    );
  });
});
