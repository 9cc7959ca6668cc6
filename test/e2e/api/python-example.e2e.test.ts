import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const SCRIPT = path.resolve(__dirname, "../../../examples/notebook.py");
/** The first Python that has pandas and matplotlib: MEMICL_PYTHON, python3 on the PATH, or Debian's own. */
const PYTHON = [process.env.MEMICL_PYTHON, "python3", "/usr/bin/python3"].find(
  (python) =>
    python && spawnSync(python, ["-c", "import pandas, matplotlib"], { stdio: "ignore" }).status === 0,
);
const hasPandas = PYTHON !== undefined;
// CI installs pandas and matplotlib (.ci/run): there the documented path must run, never skip.
const describePython = hasPandas || process.env.CI === "true" ? describe : describe.skip;
if (!hasPandas && process.env.CI !== "true")
  console.warn("examples/notebook.py not run: python3 with pandas and matplotlib is not installed here");

/** The notebook path of the docs, run against a live server with two simulated experiments. */
describePython("the Python example (examples/notebook.py)", () => {
  let api: TestServer;

  beforeAll(async () => {
    api = await startTestServer("embedded", {
      MEMICL_PROVIDERS_FILE: providersFile({
        a: { type: "simulated", simulation: { memorizedAtManyShots: 0.9, seed: 1 } },
        b: { type: "simulated", simulation: { memorizedAtManyShots: 0.2, seed: 2 } },
      }),
      MEMICL_IN_PROCESS_WORKERS: "8",
    });
  });
  afterAll(() => api?.close());

  it("builds the report, completions, report rows and comparison DataFrames, and draws a figure", async () => {
    const sampleId = await classificationSample(api, "notebook", {
      rows: 120,
      instances: 20,
      demonstrations: 5,
      shots: [0, 5],
    });
    const ids: string[] = [];
    for (const provider of ["a", "b"]) {
      const started = await api.gql(
        `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
        { input: { name: provider, sampleIds: [sampleId], provider, model: "m", performanceRepeats: 1 } },
      );
      for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 60_000);
      ids.push(started.data!.startExperiment.experiment.id);
    }
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-notebook-"));
    const base = api.server.url.replace(/\/graphql$/, "");
    // Asynchronously: the server answering the script runs in this process.
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        PYTHON ?? "python3",
        [SCRIPT, "--url", base, "--experiment", ids[0], "--compare", ids[1], "--out", out],
        { encoding: "utf8", timeout: 120_000 },
        (error, stdout, stderr) =>
          resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    // What the script says, not an empty stderr: a library's first run writes there (matplotlib's "building the
    // font cache" on a fresh machine); a Python error or warning of the script's own is a failure.
    expect({ status: result.status, stderr: result.stderr }).toEqual({
      status: 0,
      stderr: expect.any(String),
    });
    expect(result.stderr).not.toMatch(/Traceback|Error|Warning: (?!Matplotlib is building the font cache)/);
    expect(result.stdout).toMatch(/^report: \d+ rows, tables .*memorization/m);
    expect(result.stdout).toMatch(/^completions: \d+ rows, \d+ with a verdict$/m);
    expect(result.stdout).toMatch(/^report rows: \d+ rows, \d+ names$/m);
    expect(result.stdout).toMatch(/^comparison: \d+ rows, [1-9]\d* paired cells$/m);
    const png = fs.readFileSync(path.join(out, "memorization.png"));
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    fs.rmSync(out, { recursive: true, force: true });
  }, 180_000);
});
