import { BACKENDS } from "../../support/databases";
import { FakeOpenAiServer } from "../../support/fake-openai-server";
import { classificationSample, finished, providersFile, startRun, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const COMPLETIONS = `query($id: ID!) { run(id: $id) { completions(first: 100) { edges { node {
  id output extractedAnswer extractionRule sampledInstance { subsequentSegment }
  effectiveJudgment { verdict extractionRule } } } } } }`;

/**
 * The sample's texts are `<name><row>w0 ... w<n-1>` with n = 10 + row % 5 words, so a model that knows the
 * dataset can finish any initial segment exactly: this one does, and then goes on with the prompt's pattern.
 */
function memorizingModelThatContinuesThePattern(prompt: string): string {
  const block = prompt.split("\n\n").at(-1)!;
  const [firstLine, secondLine] = block.split("\n").slice(-2);
  const firstLabel = /^([^:]+:)/.exec(firstLine)![1];
  const secondLabel = /^([^:]+:)/.exec(secondLine)![1];
  const last = firstLine.trim().split(" ").at(-1)!;
  const [, stem, row, word] = /^(\D+)(\d+)w(\d+)$/.exec(last)!;
  const words = 10 + (Number(row) % 5);
  const rest = Array.from(
    { length: words - Number(word) - 1 },
    (_, i) => `${stem}${row}w${Number(word) + 1 + i}`,
  );
  return `${rest.join(" ")}\n\n${firstLabel} another text\n${secondLabel} and its end`;
}

describe.each(BACKENDS)("answer extraction before judging (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let sampleId: string;

  beforeAll(async () => {
    const url = await fake.start();
    fake.answer = (request) => memorizingModelThatContinuesThePattern(request.messages.at(-1)!.content);
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({ model: { type: "openai", baseUrl: url, maxConcurrency: 4 } }),
      MEMICL_IN_PROCESS_WORKERS: "4",
    });
    sampleId = await classificationSample(api, "extracted", {
      rows: 60,
      instances: 12,
      demonstrations: 4,
      shots: [0, 2],
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await fake.stop();
  });

  const completions = async (runId: string) =>
    (await api.gql(COMPLETIONS, { id: runId })).data!.run.completions.edges.map((edge: any) => edge.node);

  it.each(["FULL_INFORMATION", "SEGMENT_PAIRS_AND_LABELS", "ONLY_SEGMENT_PAIRS"])(
    "keeps the raw output, judges the extracted answer, and records the rule (%s)",
    async (setting) => {
      const { run } = await startRun(api, {
        sampleId,
        kind: "MEMORIZATION",
        setting,
        shots: 2,
        provider: "model",
        model: "m",
      });
      await waitForRun(api, run.id, finished);
      const nodes = await completions(run.id);
      expect(nodes).toHaveLength(12);
      for (const node of nodes) {
        expect(node.output).toContain("another text");
        expect(node.extractedAnswer).toBe(node.sampledInstance.subsequentSegment);
        expect(node.extractionRule).toBe("layout-2");
        expect(node.effectiveJudgment).toEqual({ verdict: "EXACT", extractionRule: "layout-2" });
      }
    },
  );

  it("judges a chat model's verbatim answer with its preamble and explanation as exact", async () => {
    const pattern = fake.answer;
    // A short reference, under the containment floor: only extraction can save it.
    fake.answer = (request) => {
      const verbatim = memorizingModelThatContinuesThePattern(request.messages.at(-1)!.content).split(
        "\n",
      )[0];
      return `Sure! Here is the second piece:\n${verbatim}\nExplanation: I remember this instance.`;
    };
    try {
      const { run } = await startRun(api, {
        sampleId,
        kind: "MEMORIZATION",
        setting: "SEGMENT_PAIRS_AND_LABELS",
        shots: 0,
        provider: "model",
        model: "chatty",
      });
      await waitForRun(api, run.id, finished);
      const nodes = await completions(run.id);
      expect(nodes).toHaveLength(12);
      for (const node of nodes) {
        expect(node.output).toMatch(/^Sure! Here is the second piece:/);
        expect(node.extractedAnswer).toBe(node.sampledInstance.subsequentSegment);
        expect(node.effectiveJudgment).toEqual({ verdict: "EXACT", extractionRule: "layout-2" });
      }
    } finally {
      fake.answer = pattern;
    }
  });

  it("extracts on rejudge for completions stored before extraction existed, and exports both texts", async () => {
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "model",
      model: "m",
    });
    await waitForRun(api, run.id, finished);
    // As an older version stored them: no extraction, judged on the raw output.
    await api.database.dataSource.query(
      "UPDATE completion SET extracted_answer = NULL, extraction_rule = NULL WHERE run_id = $1",
      [run.id],
    );
    const rejudged = await api.gql(
      `mutation($input: RejudgeInput!) { rejudge(input: $input) { judgedCount } }`,
      { input: { scope: { runId: run.id }, judge: { kind: "HEURISTIC" } } },
    );
    expect(rejudged.errors).toBeUndefined();
    for (const node of await completions(run.id)) {
      expect(node.extractedAnswer).toBe(node.sampledInstance.subsequentSegment);
      expect(node.effectiveJudgment).toEqual({ verdict: "EXACT", extractionRule: "layout-2" });
    }
    const experiment = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "extraction export",
          sampleIds: [sampleId],
          provider: "model",
          model: "m",
          kinds: ["MEMORIZATION"],
          settings: ["ONLY_SEGMENT_PAIRS"],
          shots: [0],
        },
      },
    );
    expect(experiment.errors).toBeUndefined();
    for (const started of experiment.data!.startExperiment.runs) await waitForRun(api, started.id, finished);
    const base = api.server.url.replace(/\/graphql$/, "");
    const lines = (
      await (
        await fetch(
          `${base}/export/experiments/${experiment.data!.startExperiment.experiment.id}/completions.jsonl`,
        )
      ).text()
    )
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((line) => line.kind === "MEMORIZATION");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.output).toContain("another text");
      expect(line.extracted_answer).toBe(line.reference);
      expect(line.extraction_rule).toBe("layout-2");
      expect(line.judgments[0].extractionRule).toBe("layout-2");
    }
  }, 60_000);
});
