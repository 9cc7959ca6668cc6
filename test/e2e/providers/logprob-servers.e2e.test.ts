import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MAX_ANSWER_CHARS } from "../../../src/llm/model-provider";
import { runCli } from "../../support/cli";
import { FakeScoringServer, startFakeScoringServer } from "../../support/fake-logprob-server";
import { finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const START = `mutation($input: StartExperimentInput!) {
  startExperiment(input: $input) { experiment { id } runs { id } } }`;
const EVIDENCE = `query($id: ID!) { contaminationSummary(experimentId: $id) { dataset logprob { verdict cannotTell
  scores { score instances } tests { score instances controlInstances auc }
  runs { runId status expected scored unusable failed notTried reasons { reason items } lastError } } } }`;

/** `rows` texts of exactly `chars` characters (words of 14 letters), each its own. */
function longTexts(name: string, rows: number, chars: number): string {
  return Array.from({ length: rows }, (_, row) => {
    let text = "";
    for (let word = 0; text.length < chars; word += 1)
      text += `${text ? " " : ""}${name.slice(0, 4)}${String(row).padStart(3, "0")}w${String(word).padStart(6, "0")}`;
    return JSON.stringify({ text: text.slice(0, chars), label: row % 2 ? "a" : "b" });
  }).join("\n");
}

/**
 * The LOGPROB method against scoring servers that answer as real ones do (test/support/fake-logprob-server.ts):
 * a server that cannot score is refused before the grid, with the probe's finding; an answer that cannot be scored
 * whole fails its item with the reason, and the report counts it; a text of 10,000 tokens is scored like a short one.
 */
describe("the LOGPROB method against real servers' behaviours (embedded database)", () => {
  let api: TestServer;
  let scorer: FakeScoringServer;
  let providers: string;
  const samples: Record<string, string> = {};

  beforeAll(async () => {
    scorer = await startFakeScoringServer();
    providers = providersFile({
      scorer: { type: "openai", baseUrl: scorer.url, promptLogprobs: { top: 3 }, circuitBreakerFailures: 5 },
      // A server asked for no alternatives per position: every score but Min-K%++.
      bare: { type: "openai", baseUrl: scorer.url, promptLogprobs: { top: 0 } },
    });
    api = await startTestServer("embedded", {
      MEMICL_PROVIDERS_FILE: providers,
      MEMICL_IN_PROCESS_WORKERS: "4",
    });
    const ids: Record<string, string> = {};
    for (const name of ["novel", "fresh"]) {
      const imported = await api.gql(
        `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { id } } }`,
        { input: { name, content: `${longTexts(name, 16, 10_000)}\n`, format: "jsonl" } },
      );
      expect(imported.errors).toBeUndefined();
      ids[name] = imported.data!.importDataset.dataset.id;
      const sample = await api.gql(
        `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
        {
          input: { datasetId: ids[name], seed: 1, instanceCount: 12, demonstrationCount: 0, shotCounts: [0] },
        },
      );
      expect(sample.errors).toBeUndefined();
      samples[name] = sample.data!.createSample.sample.id;
    }
    const marked = await api.gql(
      `mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { name } }`,
      { input: { id: ids.fresh, controlOf: ids.novel } },
    );
    expect(marked.errors).toBeUndefined();
  }, 240_000);

  afterAll(async () => {
    await api?.close();
    await scorer?.close();
  });

  const start = (model: string) =>
    api.gql(START, {
      input: {
        name: `scored by ${model}`,
        sampleIds: [samples.novel, samples.fresh],
        provider: "scorer",
        model,
        methods: ["LOGPROB"],
      },
    });

  it.each([
    ["no-echo", /does not echo prompt log-probabilities/],
    ["empty", /empty prompt log-probabilities/],
    ["chat-only", /404.*serves chat only/],
  ])("refuses a server that answers %s before the grid, with the probe's finding", async (model, finding) => {
    const before = (await api.gql(`{ experiments(first: 100) { edges { node { id } } } }`)).data!.experiments
      .edges.length;
    const refused = await start(model);
    expect(refused.errors?.[0].message).toMatch(/cannot score prompts for the LOGPROB method/);
    expect(refused.errors?.[0].message).toMatch(finding);
    expect(refused.errors?.[0].message).toContain(`memicl providers --check scorer --model ${model}`);
    const after = (await api.gql(`{ experiments(first: 100) { edges { node { id } } } }`)).data!.experiments
      .edges.length;
    expect(after).toBe(before);
  });

  it("runs the same probe by hand: memicl providers --check NAME", async () => {
    const env = { MEMICL_PROVIDERS_FILE: providers, DATABASE_URL: api.database.url };
    const bad = await runCli(["providers", "--check", "scorer", "--model", "no-echo"], env);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/logprob probe: FAILED: this server does not echo/);
    const good = await runCli(["providers", "--check", "scorer", "--model", "echo"], env);
    expect(good.stdout).toMatch(/logprob probe: ok \(\d+ tokens scored, 3 alternatives per position\)/);
    expect(good.code).toBe(0);
  }, 60_000);

  it("marks a control dataset from the command line: memicl import --control-of", async () => {
    const env = { MEMICL_PROVIDERS_FILE: providers, DATABASE_URL: api.database.url };
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "memicl-control-")), "later.jsonl");
    fs.writeFileSync(file, `${longTexts("later", 12, 300)}\n`);
    const names = async () =>
      (
        await api.gql(`{ datasets(first: 50) { edges { node { name controlOf { name } } } } }`)
      ).data!.datasets.edges.map((edge: any) => edge.node);
    const wrong = await runCli(["import", file, "--name", "later", "--control-of", "no-such-dataset"], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/no dataset named or with id "no-such-dataset"/);
    expect((await names()).map((d: any) => d.name)).not.toContain("later");
    const marked = await runCli(["import", file, "--name", "later", "--control-of", "novel"], env);
    expect(marked.code).toBe(0);
    expect(marked.stdout).toMatch(/control of: "novel"/);
    expect((await names()).find((d: any) => d.name === "later")).toEqual({
      name: "later",
      controlOf: { name: "novel" },
    });
    // Not a control of this test's samples any more than "fresh" is: unmark it, so the studies below see one control.
    const id = (
      await api.gql(`{ datasets(first: 50) { edges { node { id name } } } }`)
    ).data!.datasets.edges.find((edge: any) => edge.node.name === "later").node.id;
    expect(
      (
        await api.gql(`mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { name } }`, {
          input: { id, controlOf: null },
        })
      ).errors,
    ).toBeUndefined();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }, 60_000);

  it("scores a text of 10,000 tokens like a short one: its values kept whole in their own column", async () => {
    const started = await start("echo");
    expect(started.errors).toBeUndefined();
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 120_000);
    const id = started.data!.startExperiment.experiment.id;
    const summary = (await api.gql(EVIDENCE, { id })).data!.contaminationSummary;
    const novel = summary.find((row: any) => row.dataset === "novel").logprob;
    expect(novel.scores.find((s: any) => s.score === "minK").instances).toBe(12);
    expect(novel.tests.find((t: any) => t.score === "minK")).toMatchObject({
      instances: 12,
      controlInstances: 12,
    });
    expect(novel.verdict).not.toBeNull();
    expect(
      novel.runs.every((run: any) => run.scored === 12 && run.failed + run.unusable + run.notTried === 0),
    ).toBe(true);
    const [stored] = await api.database.dataSource.query(
      `SELECT max(length(c.token_logprobs))::int AS payload, max(length(c.output))::int AS output
       FROM completion c JOIN run r ON r.id = c.run_id WHERE r.experiment_id = $1`,
      [id],
    );
    // Longer than any stored answer may be, and whole: the output is a short note.
    expect(stored.payload).toBeGreaterThan(MAX_ANSWER_CHARS);
    expect(stored.output).toBeLessThan(200);
  }, 180_000);

  it("says Min-K%++ has no value when the server returns no alternatives, and scores the rest", async () => {
    const started = await api.gql(START, {
      input: {
        name: "bare",
        sampleIds: [samples.novel, samples.fresh],
        provider: "bare",
        model: "echo",
        methods: ["LOGPROB"],
      },
    });
    expect(started.errors).toBeUndefined();
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 120_000);
    const summary = (await api.gql(EVIDENCE, { id: started.data!.startExperiment.experiment.id })).data!
      .contaminationSummary;
    const novel = summary.find((row: any) => row.dataset === "novel").logprob;
    expect(novel.scores.find((s: any) => s.score === "minK").instances).toBe(12);
    expect(novel.scores.find((s: any) => s.score === "minKPlusPlus").instances).toBe(0);
    expect(novel.cannotTell).toMatch(/Min-K%\+\+ has no value: the server returned no alternatives/);
  }, 180_000);

  it.each([
    ["clamped", /-9999 at prompt position 3: a clamped -infinity/],
    ["null-middle", /no log-probability at prompt position 5/],
    ["short-arrays", /arrays differ in length/],
  ])(
    "fails every item of a server that answers %s, says why, stops early, and scores none",
    async (model, reason) => {
      const started = await start(model);
      expect(started.errors).toBeUndefined();
      for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 120_000);
      const id = started.data!.startExperiment.experiment.id;
      const summary = (await api.gql(EVIDENCE, { id })).data!.contaminationSummary;
      for (const row of summary) {
        const evidence = row.logprob;
        expect(evidence.scores.every((score: any) => score.instances === 0)).toBe(true);
        expect(evidence.tests.every((test: any) => test.auc === null)).toBe(true);
        for (const run of evidence.runs) {
          expect(run.status).toBe("FAILED");
          expect(run.scored).toBe(0);
          // The circuit breaker (5 in a row here) stops the run before its last items.
          expect(run.failed).toBeGreaterThanOrEqual(5);
          expect(run.failed + run.notTried).toBe(run.expected);
          expect(run.reasons[0].reason).toMatch(reason);
          expect(run.lastError).toMatch(/circuit breaker|failed/);
        }
      }
      // The markdown report says so where the method's line is.
      const markdown = await runCli(["report", id], { DATABASE_URL: api.database.url });
      expect(markdown.stdout).toMatch(/of 12 items, \d+ failed(, \d+ never tried)? \(the commonest reason: /);
      // Nothing of it was cached: a later server that scores gets asked again.
      const [cached] = await api.database.dataSource.query(
        `SELECT count(*)::int AS n FROM response_cache WHERE model = $1`,
        [model],
      );
      expect(cached.n).toBe(0);
    },
    180_000,
  );
});
