import { nearlyThe } from "../../src/llm/simulated-provider";
import { BACKENDS } from "../support/databases";
import { classificationSample, finished, providersFile, startRun, waitForRun } from "../support/runs";
import { startTestServer, TestServer } from "../support/server";

const COMPLETIONS = `query($id: ID!) { run(id: $id) { completions(first: 500) { edges { node {
  id output sampledInstance { subsequentSegment }
  effectiveJudgment { id verdict judgeKind judgeName supersedesId details }
  judgments { id verdict judgeKind judgeName note supersedesId } } } } } }`;

describe.each(BACKENDS)("judging (%s database)", (backend) => {
  let api: TestServer;
  let runId: string;
  const completions = async () =>
    (await api.gql(COMPLETIONS, { id: runId })).data!.run.completions.edges.map((edge: any) => edge.node);

  beforeAll(async () => {
    const file = providersFile({
      sim: {
        type: "simulated",
        simulation: {
          memorizedAtZeroShot: 0.4,
          memorizedAtManyShots: 0.9,
          halfRiseShots: 5,
          nearExactShare: 0.6,
        },
      },
    });
    api = await startTestServer(backend, { MEMICL_PROVIDERS_FILE: file, MEMICL_IN_PROCESS_WORKERS: "8" });
    const sampleId = await classificationSample(api, "judged", {
      rows: 120,
      instances: 60,
      demonstrations: 10,
      shots: [0, 10],
    });
    ({
      run: { id: runId },
    } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 10,
      provider: "sim",
      model: "m",
    }));
    await waitForRun(api, runId, finished);
  }, 60_000);
  afterAll(() => api?.close());

  it("judges every memorization completion as it lands, with the heuristic judge's scores", async () => {
    const nodes = await completions();
    expect(nodes).toHaveLength(60);
    for (const node of nodes) {
      const expected =
        node.output === node.sampledInstance.subsequentSegment
          ? "EXACT"
          : node.output === nearlyThe(node.sampledInstance.subsequentSegment)
            ? "NEAR_EXACT"
            : "INEXACT";
      expect(node.effectiveJudgment).toMatchObject({
        verdict: expected,
        judgeKind: "HEURISTIC",
        judgeName: "heuristic",
      });
      expect(node.effectiveJudgment.details.scores.rougeL).toEqual(expect.any(Number));
    }
    const verdicts = new Set(nodes.map((node: any) => node.effectiveJudgment.verdict));
    expect([...verdicts].sort()).toEqual(["EXACT", "INEXACT", "NEAR_EXACT"]);
  });

  it("lets a human override the verdict, keeps the history, and shows the judge's agreement with the human", async () => {
    const [first, second] = await completions();
    const flip = first.effectiveJudgment.verdict === "INEXACT" ? "NEAR_EXACT" : "INEXACT";
    const review = `mutation($input: ReviewCompletionInput!) { reviewCompletion(input: $input) { judgment { id verdict judgeKind judgeName supersedesId } } }`;
    const overridden = await api.gql(review, {
      input: { completionId: first.id, reviewer: "ana", verdict: flip, note: "paraphrase" },
    });
    expect(overridden.data?.reviewCompletion.judgment).toMatchObject({
      verdict: flip,
      judgeKind: "HUMAN",
      judgeName: "ana",
      supersedesId: first.effectiveJudgment.id,
    });
    await api.gql(review, {
      input: { completionId: second.id, reviewer: "ana", verdict: second.effectiveJudgment.verdict },
    });

    const after = await completions();
    const changed = after.find((node: any) => node.id === first.id);
    expect(changed.effectiveJudgment).toMatchObject({ verdict: flip, judgeKind: "HUMAN" });
    expect(changed.judgments.map((judgment: any) => judgment.judgeKind)).toEqual(["HUMAN", "HEURISTIC"]);

    const agreement = await api.gql(
      `query($scope: JudgingScope!) { judgeAgreement(scope: $scope, judgeA: { kind: HEURISTIC }, judgeB: { kind: HUMAN, name: "ana" }) {
        n total coverage agreed percentAgreement kappa kappaBinary confusion disagreeingCompletionIds } }`,
      { scope: { runId } },
    );
    expect(agreement.data?.judgeAgreement).toMatchObject({
      n: 2,
      total: 60,
      agreed: 1,
      percentAgreement: 0.5,
      disagreeingCompletionIds: [first.id],
    });
    expect(agreement.data?.judgeAgreement.coverage).toBeCloseTo(2 / 60, 10);
  });

  it("adds judgments on rejudge and replaces none", async () => {
    const before = await completions();
    const response = await api.gql(
      `mutation($input: RejudgeInput!) { rejudge(input: $input) { judgedCount } }`,
      {
        input: { scope: { runId }, rougeL: 0.5 },
      },
    );
    expect(response.data?.rejudge.judgedCount).toBe(60);
    const after = await completions();
    for (const node of after) {
      const old = before.find((candidate: any) => candidate.id === node.id);
      expect(node.judgments).toHaveLength(old.judgments.length + 1);
      expect(node.judgments.slice(1)).toEqual(old.judgments);
    }
    const reviewed = after.find((node: any) =>
      node.judgments.some((judgment: any) => judgment.judgeKind === "HUMAN"),
    );
    expect(reviewed.effectiveJudgment.judgeKind).toBe("HUMAN");
  });

  it("refuses a scope naming both a run and an experiment", async () => {
    const response = await api.gql(
      `query($scope: JudgingScope!) { judgeAgreement(scope: $scope, judgeA: { kind: HEURISTIC }, judgeB: { kind: HUMAN }) { n } }`,
      {
        scope: { runId, experimentId: runId },
      },
    );
    expect(response.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });
});
