import fs from "node:fs";
import { parse } from "csv-parse/sync";
import { FakeOpenAiServer } from "../../support/fake-openai-server";
import { finished, providersFile, startRun, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";
import { describeWithSharedData, sharedFile } from "../../support/shared-data";

/** WNLI's rows come in pairs that share sentence 1; a model that answers a sibling's sentence 2 has not reproduced the instance. */
describeWithSharedData("siblings on the shared WNLI file", () => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let rows: { sentence1: string; sentence2: string }[] = [];

  beforeAll(async () => {
    rows = parse(fs.readFileSync(sharedFile("datasets", "wnli", "validation.csv")), { columns: true });
    const url = await fake.start();
    api = await startTestServer("embedded", {
      MEMICL_PROVIDERS_FILE: providersFile({ echo: { type: "openai", baseUrl: url, maxConcurrency: 8 } }),
      MEMICL_IN_PROCESS_WORKERS: "8",
    });
  });
  afterAll(async () => {
    await api?.close();
    await fake.stop();
  });

  let sampleId = "";

  it("judges a sibling's sentence 2 INEXACT, saying why, and the instance's own EXACT", async () => {
    const imported = await api.gql(
      `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { id } } }`,
      {
        input: {
          name: "wnli",
          format: "csv",
          split: "validation",
          content: fs.readFileSync(sharedFile("datasets", "wnli", "validation.csv"), "utf8"),
        },
      },
    );
    const sample = await api.gql(
      `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
      {
        input: {
          datasetId: imported.data!.importDataset.dataset.id,
          seed: 3,
          instanceCount: 30,
          demonstrationCount: 0,
          instanceSplit: "validation",
          demonstrationSplit: "validation",
          shotCounts: [0],
        },
      },
    );
    // The stand-in model answers, for every instance, the last sentence 2 the file has for its sentence 1: its
    // own for some instances, a sibling's for the others.
    fake.answer = (request) => {
      const first = /SENTENCE 1: (.*)\nSENTENCE 2:$/.exec(request.messages.at(-1)!.content)![1];
      return rows.filter((row) => row.sentence1.trim() === first.trim()).at(-1)!.sentence2;
    };
    sampleId = sample.data!.createSample.sample.id;
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "echo",
      model: "m",
    });
    await waitForRun(api, run.id, finished, 60_000);
    const response = await api.gql(
      `query($id: ID!) { run(id: $id) { completions(first: 100) { edges { node { output sampledInstance { subsequentSegment }
        effectiveJudgment { verdict details } } } } } }`,
      { id: run.id },
    );
    const nodes = response.data!.run.completions.edges.map((edge: any) => edge.node);
    const siblingAnswers = nodes.filter(
      (node: any) => node.output !== node.sampledInstance.subsequentSegment,
    );
    const ownAnswers = nodes.filter((node: any) => node.output === node.sampledInstance.subsequentSegment);
    expect(siblingAnswers.length).toBeGreaterThan(0);
    for (const node of siblingAnswers) {
      expect(node.effectiveJudgment.verdict).toBe("INEXACT");
      // Where overlap alone would have said near-exact ("The mouse was too cautious." for "The cat ..."),
      // heuristic-6 sees the changed referent of sentence 1 (or the sibling rule decides), and says so.
      const { details } = node.effectiveJudgment;
      if (details.scores.rougeL >= 0.8) {
        const slots = (details.scores.spans?.changedSlots ?? []).map((slot: any) => slot.kind);
        expect({ reason: details.reason, slots }).toEqual(
          details.reason === "sibling continuation"
            ? { reason: "sibling continuation", slots: expect.any(Array) }
            : { reason: undefined, slots: expect.arrayContaining(["referent"]) },
        );
      }
    }
    expect(
      siblingAnswers.filter((node: any) =>
        (node.effectiveJudgment.details.scores.spans?.changedSlots ?? []).some(
          (slot: any) => slot.kind === "referent",
        ),
      ).length,
    ).toBeGreaterThan(0);
    for (const node of ownAnswers) expect(node.effectiveJudgment.verdict).toBe("EXACT");
  }, 90_000);

  it("applies the sibling rule to the LLM judge's verdicts too", async () => {
    // The same stand-in model; as a judge it calls every pair a near-exact match.
    const answerLike = fake.answer;
    fake.answer = (request) =>
      request.messages.at(-1)!.content.includes("Reference text:") ? "near-exact match" : answerLike(request);
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "echo",
      model: "m2",
      judge: { kind: "LLM", provider: "echo", model: "judge" },
    });
    await waitForRun(api, run.id, finished, 60_000);
    const query = `query($id: ID!) { run(id: $id) { completions(first: 100) { edges { node { output
      sampledInstance { subsequentSegment } effectiveJudgment { verdict judgeKind details } } } } } }`;
    let nodes: any[] = [];
    for (let tries = 0; tries < 100; tries += 1) {
      nodes = (await api.gql(query, { id: run.id })).data!.run.completions.edges.map(
        (edge: any) => edge.node,
      );
      if (nodes.every((node) => node.effectiveJudgment?.judgeKind === "LLM")) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const siblingAnswers = nodes.filter((node) => node.output !== node.sampledInstance.subsequentSegment);
    expect(siblingAnswers.length).toBeGreaterThan(0);
    for (const node of siblingAnswers)
      expect(node.effectiveJudgment).toMatchObject({
        verdict: "INEXACT",
        judgeKind: "LLM",
        details: {
          reason: "sibling continuation",
          judgeVerdict: "NEAR_EXACT",
          siblingContinuation: node.output,
        },
      });
    for (const node of nodes.filter((n) => n.output === n.sampledInstance.subsequentSegment))
      expect(node.effectiveJudgment.verdict).toBe("NEAR_EXACT");
  }, 90_000);
});
