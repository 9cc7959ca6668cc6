import { nearlyThe } from "../../../src/llm/simulated-provider";
import { BACKENDS } from "../../support/databases";
import { FakeOpenAiServer } from "../../support/fake-openai-server";
import { classificationSample, finished, providersFile, startRun, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const COMPLETIONS = `query($id: ID!) { run(id: $id) { completions(first: 500) { edges { node {
  id output sampledInstance { subsequentSegment }
  effectiveJudgment { id verdict judgeKind judgeName supersedesId details unsure spans { reading kind reference candidate } }
  judgments { id verdict judgeKind judgeName judgeVersion note supersedesId details } } } } } }`;

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
      // Why: the spans the verdict rests on. An exact answer differs nowhere; a near-exact one names no changed
      // fact; an inexact one differs somewhere.
      const spans: { reading: string; kind: string | null }[] = node.effectiveJudgment.spans;
      if (expected === "EXACT") expect(spans).toEqual([]);
      if (expected === "NEAR_EXACT") expect(spans.filter((span) => span.reading === "FACT")).toEqual([]);
      if (expected === "INEXACT") expect(spans.length).toBeGreaterThan(0);
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

  it("takes the reviewers' majority, leaves a tie to the automatic verdict, and measures their agreement", async () => {
    const nodes = await completions();
    const [, , agreed, tied] = nodes;
    const review = (completionId: string, reviewer: string, verdict: string) =>
      api.gql(
        `mutation($input: ReviewCompletionInput!) { reviewCompletion(input: $input) { judgment { id } } }`,
        { input: { completionId, reviewer, verdict } },
      );
    const queue = async (reason: string) =>
      (
        await api.gql(
          `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: ${reason}, first: 100) { edges { node { id
            effectiveJudgment { verdict judgeKind details } } } } }`,
          { scope: { runId } },
        )
      ).data!.completionsToReview.edges.map((edge: any) => edge.node);
    const effective = async (id: string) =>
      (await completions()).find((node: any) => node.id === id).effectiveJudgment;
    await review(agreed.id, "ana", "EXACT");
    await review(agreed.id, "bo", "EXACT");
    await review(tied.id, "ana", "INEXACT");
    await review(tied.id, "bo", "EXACT");
    expect(await effective(agreed.id)).toMatchObject({ verdict: "EXACT", judgeKind: "HUMAN" });
    // One each way: the heuristic's verdict stands, and the completion waits for another review.
    expect(await effective(tied.id)).toMatchObject({
      verdict: tied.effectiveJudgment.verdict,
      judgeKind: "HEURISTIC",
    });
    expect((await queue("REVIEWER_TIE")).map((node: any) => node.id)).toEqual([tied.id]);
    const reviewerAgreement = async () =>
      (
        await api.gql(
          `query($scope: JudgingScope!) { reviewerAgreement(scope: $scope) { reviewers items excluded statistic kappa kappaBinary percentAgreement } }`,
          { scope: { runId } },
        )
      ).data!.reviewerAgreement;
    // ana and bo on two completions (ana's lone reviews do not count): agreeing on one, by chance as often
    expect(await reviewerAgreement()).toEqual({
      reviewers: ["ana", "bo"],
      items: 2,
      excluded: 0,
      statistic: "COHEN",
      kappa: 0,
      kappaBinary: 0,
      percentAgreement: 0.5,
    });
    await review(tied.id, "cy", "EXACT");
    expect(await effective(tied.id)).toMatchObject({ verdict: "EXACT", judgeKind: "HUMAN" });
    expect(await queue("REVIEWER_TIE")).toEqual([]);
    expect(await reviewerAgreement()).toMatchObject({
      reviewers: ["ana", "bo", "cy"],
      statistic: "FLEISS",
      items: 1,
      excluded: 1,
    });
    // A reviewer who changes their mind counts once, with their latest verdict.
    await review(tied.id, "ana", "EXACT");
    expect((await reviewerAgreement()).kappa).toBe(1);

    // Near a threshold: unreviewed, and the heuristic's scores within 0.05 of one it decided by.
    const near = await queue("NEAR_THRESHOLD");
    const reviewed = new Set([nodes[0].id, nodes[1].id, agreed.id, tied.id]);
    for (const node of near) {
      expect(reviewed.has(node.id)).toBe(false);
      const { scores, thresholds } = node.effectiveJudgment.details;
      const rouge = scores.spans?.rougeL ?? scores.rougeL;
      const precision = scores.spans?.contentPrecision ?? scores.contentPrecision;
      const recall = scores.spans?.contentRecall ?? scores.contentRecall;
      expect(
        Math.abs(rouge - thresholds.rougeL) < 0.05 ||
          (Math.abs(precision - thresholds.contentPrecision) < 0.05 &&
            recall >= thresholds.contentRecall - 0.05) ||
          (Math.abs(recall - thresholds.contentRecall) < 0.05 &&
            precision >= thresholds.contentPrecision - 0.05),
      ).toBe(true);
    }
  });

  it("adds judgments on rejudge and replaces none", async () => {
    const before = await completions();
    const response = await api.gql(
      `mutation($input: RejudgeInput!) { rejudge(input: $input) { judgedCount } }`,
      {
        input: { scope: { runId }, rougeL: 0.5, contentPrecision: 0.9, contentRecall: 0.95 },
      },
    );
    expect(response.data?.rejudge.judgedCount).toBe(60);
    const after = await completions();
    // The thresholds given, the others at their defaults, are recorded on every new judgment.
    for (const node of after)
      expect(node.judgments[0].details.thresholds).toEqual({
        rougeL: 0.5,
        containedReferenceMinTokens: 15,
        charSimilarity: 1.01,
        contentPrecision: 0.9,
        contentRecall: 0.95,
      });
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

describe.each(BACKENDS)("the LLM judge and the review queue (%s database)", (backend) => {
  const fake = new FakeOpenAiServer();
  let api: TestServer;
  let sampleId: string;

  beforeAll(async () => {
    const url = await fake.start();
    // The judge model: exact when the candidate is the reference, near-exact when it repeats the last word, else unsure.
    fake.answer = (request) => {
      const last = request.messages.at(-1)!.content;
      if (!last.includes("Reference text:")) return "an answer";
      const [, reference, candidate] =
        /Reference text: ([^\n]*)\nCandidate text: ([^\n]*)\nAnswer:$/.exec(last) ?? [];
      if (candidate === reference) return "Exact match.";
      if (candidate === nearlyThe(reference)) return "near-exact match";
      return candidate.length % 2 === 0 ? "inexact match" : "I am not sure";
    };
    const file = providersFile({
      sim: {
        type: "simulated",
        simulation: {
          memorizedAtZeroShot: 0.5,
          memorizedAtManyShots: 0.9,
          halfRiseShots: 5,
          nearExactShare: 0.5,
        },
      },
      judge: {
        type: "openai",
        baseUrl: url,
        maxConcurrency: 4,
        prices: { "judge-model": { inputPerMillion: 2, outputPerMillion: 8 } },
      },
    });
    api = await startTestServer(backend, { MEMICL_PROVIDERS_FILE: file, MEMICL_IN_PROCESS_WORKERS: "8" });
    sampleId = await classificationSample(api, "llmjudged", {
      rows: 80,
      instances: 30,
      demonstrations: 5,
      shots: [0, 5],
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await fake.stop();
  });

  const judgments = async (runId: string) =>
    (await api.gql(COMPLETIONS, { id: runId })).data!.run.completions.edges.map((edge: any) => edge.node);

  const waitForJudgments = async (runId: string, count: number) => {
    for (let tries = 0; tries < 200; tries += 1) {
      const nodes = await judgments(runId);
      if (nodes.every((node: any) => node.judgments.length >= count)) return nodes;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("judgments did not arrive");
  };

  it("judges a run's answers with the LLM judge the run names, through the judgment queue", async () => {
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "FULL_INFORMATION",
      shots: 5,
      provider: "sim",
      model: "m",
      judge: { kind: "LLM", provider: "judge", model: "judge-model" },
    });
    await waitForRun(api, run.id, finished);
    const nodes = await waitForJudgments(run.id, 1);
    for (const node of nodes) {
      const judgment = node.judgments[0];
      expect(judgment).toMatchObject({ judgeKind: "LLM", judgeName: "llm:judge/judge-model" });
      const expected =
        node.output === node.sampledInstance.subsequentSegment
          ? "EXACT"
          : node.output === nearlyThe(node.sampledInstance.subsequentSegment)
            ? "NEAR_EXACT"
            : node.output.length % 2 === 0
              ? "INEXACT"
              : "UNPARSEABLE";
      expect(judgment.verdict).toBe(expected);
    }
    const judgeCalls = fake.requests.filter((request) =>
      request.messages.at(-1)!.content.includes("Reference text:"),
    );
    expect(judgeCalls).toHaveLength(30);
    expect(judgeCalls.every((request) => request.temperature === 0 && request.maxTokens === 10)).toBe(true);

    // A second request adds a second LLM judgment per completion, answered from the response cache.
    const again = await api.gql(
      `mutation($input: RejudgeInput!) { rejudge(input: $input) { queuedCount request } }`,
      {
        input: { scope: { runId: run.id }, judge: { kind: "LLM", provider: "judge", model: "judge-model" } },
      },
    );
    expect(again.data?.rejudge.queuedCount).toBe(30);
    await waitForJudgments(run.id, 2);
    expect(
      fake.requests.filter((request) => request.messages.at(-1)!.content.includes("Reference text:")),
    ).toHaveLength(30);

    // A new version of the judge prompt is what the next request uses, and judgments say which they used.
    const created = await api.gql(
      `mutation($input: CreateJudgePromptVersionInput!) { createJudgePromptVersion(input: $input) { version instruction examples { answer } } }`,
      {
        input: {
          instruction: "Compare the texts. Answer with the category only.",
          examples: [{ reference: "a b c", candidate: "a b c", answer: "exact match" }],
        },
      },
    );
    expect(created.data?.createJudgePromptVersion).toMatchObject({
      version: 2,
      examples: [{ answer: "exact match" }],
    });
    const bad = await api.gql(
      `mutation($input: CreateJudgePromptVersionInput!) { createJudgePromptVersion(input: $input) { version } }`,
      {
        input: { instruction: "x", examples: [{ reference: "a", candidate: "b", answer: "maybe" }] },
      },
    );
    expect(bad.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    await api.gql(`mutation($input: RejudgeInput!) { rejudge(input: $input) { queuedCount } }`, {
      input: { scope: { runId: run.id }, judge: { kind: "LLM", provider: "judge", model: "judge-model" } },
    });
    const third = await waitForJudgments(run.id, 3);
    expect(third[0].judgments[0].judgeVersion).toBe("llm-judge-1/prompt-v2");
    expect(fake.requests.at(-1)!.messages[0].content).toBe(
      "Compare the texts. Answer with the category only.",
    );
    const first = await api.gql(`{ judgePrompt(version: 1) { version examples { answer } } }`);
    expect(first.data?.judgePrompt.examples).toHaveLength(4);

    // The heuristic judge next to it: where they disagree, the review queue says so.
    await api.gql(`mutation($input: RejudgeInput!) { rejudge(input: $input) { judgedCount } }`, {
      input: { scope: { runId: run.id } },
    });
    const withHeuristic = await judgments(run.id);
    const disagreeing = withHeuristic.filter((node: any) => {
      const latest = new Map<string, string>();
      for (const judgment of [...node.judgments].reverse()) latest.set(judgment.judgeName, judgment.verdict);
      const verdicts = new Set([...latest.values()].filter((verdict) => verdict !== "UNPARSEABLE"));
      return verdicts.size > 1;
    });
    const queue = await api.gql(
      `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: DISAGREEMENT, first: 100) { edges { node { id } } } }`,
      { scope: { runId: run.id } },
    );
    expect(queue.data?.completionsToReview.edges.map((edge: any) => edge.node.id).sort()).toEqual(
      disagreeing.map((node: any) => node.id).sort(),
    );
  }, 60_000);

  it("bounds each rate by the verdicts the judge is unsure of, and settles only those, priced first", async () => {
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id kind } } }`,
      {
        input: {
          name: "bounds",
          sampleIds: [sampleId],
          provider: "sim",
          model: "m",
          kinds: ["MEMORIZATION"],
          settings: ["FULL_INFORMATION"],
        },
      },
    );
    expect(started.errors).toBeUndefined();
    const { experiment, runs } = started.data!.startExperiment;
    for (const run of runs) await waitForRun(api, run.id, finished);
    const memorizationRuns = runs.filter((run: any) => run.kind === "MEMORIZATION");
    const report = async () =>
      (
        await api.gql(
          `query($id: ID!) { studyReport(experimentId: $id, fresh: true) { memorization {
            sampleId setting shots n exact nearExact memorized rate unsureNearExact unsureInexact judgeLow judgeHigh } } }`,
          { id: experiment.id },
        )
      ).data!.studyReport.memorization.filter((row: any) => row.sampleId !== null);
    const flagged = async () => {
      const nodes = (await Promise.all(memorizationRuns.map((run: any) => judgments(run.id)))).flat();
      return nodes.map((node: any) => ({
        id: node.id,
        verdict: node.effectiveJudgment.verdict,
        unsure: node.effectiveJudgment.unsure,
        llm: node.judgments.find((judgment: any) => judgment.judgeKind === "LLM")?.verdict ?? null,
      }));
    };
    const before = await flagged();
    const unsure = before.filter((node) => node.unsure);
    // The simulated near-exact answers drop or repeat a content word: a span the judge cannot class.
    expect(unsure.length).toBeGreaterThan(0);
    for (const node of before) expect(typeof node.unsure).toBe("boolean");
    const rows = await report();
    const sum = (field: string) => rows.reduce((total: number, row: any) => total + row[field], 0);
    expect(sum("unsureNearExact")).toBe(unsure.filter((node) => node.verdict === "NEAR_EXACT").length);
    expect(sum("unsureInexact")).toBe(unsure.filter((node) => node.verdict === "INEXACT").length);
    for (const row of rows) {
      expect(row.judgeLow).toBeCloseTo((row.memorized - row.unsureNearExact) / row.n, 12);
      expect(row.judgeHigh).toBeCloseTo((row.memorized + row.unsureInexact) / row.n, 12);
      expect(row.judgeLow).toBeLessThanOrEqual(row.rate);
      expect(row.judgeHigh).toBeGreaterThanOrEqual(row.rate);
    }

    // The review queue of the unsure ones holds exactly them.
    const queued = await api.gql(
      `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: UNSURE, first: 500) { edges { node { id } } } }`,
      { scope: { experimentId: experiment.id } },
    );
    expect(queued.data?.completionsToReview.edges.map((edge: any) => edge.node.id).sort()).toEqual(
      unsure.map((node) => node.id).sort(),
    );

    // The estimate first: one call per unsure verdict, priced at the judge model's configured price.
    const input = {
      scope: { experimentId: experiment.id },
      judge: { kind: "LLM", provider: "judge", model: "judge-model" },
      unsureOnly: true,
    };
    const estimate = (
      await api.gql(
        `query($input: RejudgeInput!) { estimateJudging(input: $input) { completions calls promptTokens maxOutputTokens worstCaseUsd priced } }`,
        { input },
      )
    ).data!.estimateJudging;
    expect(estimate).toMatchObject({ completions: unsure.length, calls: unsure.length, priced: true });
    expect(estimate.maxOutputTokens).toBe(10 * unsure.length);
    expect(estimate.promptTokens).toBeGreaterThan(50 * unsure.length);
    expect(estimate.worstCaseUsd).toBeGreaterThan((2 * estimate.promptTokens) / 1e6);
    const all = (
      await api.gql(`query($input: RejudgeInput!) { estimateJudging(input: $input) { completions } }`, {
        input: { ...input, unsureOnly: false },
      })
    ).data!.estimateJudging;
    expect(all.completions).toBe(before.length);
    // unsureOnly settles with an LLM judge or a review; a heuristic rejudge cannot.
    const refused = await api.gql(
      `mutation($input: RejudgeInput!) { rejudge(input: $input) { judgedCount } }`,
      { input: { scope: { experimentId: experiment.id }, unsureOnly: true } },
    );
    expect(refused.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");

    // Settled by the LLM judge: only the unsure verdicts are sent, and the band closes.
    const calls = fake.requests.length;
    const settled = await api.gql(
      `mutation($input: RejudgeInput!) { rejudge(input: $input) { queuedCount } }`,
      { input },
    );
    expect(settled.data?.rejudge.queuedCount).toBe(unsure.length);
    let now = before;
    const unsureIds = new Set(unsure.map((node) => node.id));
    for (let tries = 0; ; tries += 1) {
      now = await flagged();
      if (now.filter((node) => unsureIds.has(node.id)).every((node) => node.llm !== null)) break;
      if (tries > 200) throw new Error("the LLM judgments did not arrive");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // (The earlier test's judgments of the same answers are in the response cache: fewer calls, never more.)
    expect(fake.requests.length - calls).toBeLessThanOrEqual(unsure.length);
    expect(
      now
        .filter((node) => node.llm !== null)
        .map((node) => node.id)
        .sort(),
    ).toEqual([...unsureIds].sort());
    // A readable LLM verdict settles one; an unreadable one leaves the heuristic's unsure verdict standing.
    const standing = now.filter((node) => unsureIds.has(node.id) && node.llm === "UNPARSEABLE");
    expect(
      now
        .filter((node) => node.unsure)
        .map((node) => node.id)
        .sort(),
    ).toEqual(standing.map((node) => node.id).sort());
    const after = await report();
    const sumAfter = (field: string) => after.reduce((total: number, row: any) => total + row[field], 0);
    expect(sumAfter("unsureNearExact") + sumAfter("unsureInexact")).toBe(standing.length);
    // The fake judge calls the simulated near-exact answers near-exact: the headline rate stands.
    expect(after.map((row: any) => row.rate)).toEqual(rows.map((row: any) => row.rate));
  }, 90_000);

  it("pages through a seeded random sample for review, the same order for the same seed", async () => {
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "sim",
      model: "m",
    });
    await waitForRun(api, run.id, finished);
    const page = async (after: string | null, seed: string) =>
      (
        await api.gql(
          `query($scope: JudgingScope!, $after: String, $seed: String!) { completionsToReview(scope: $scope, reason: SAMPLE, first: 7, after: $after, seed: $seed) {
            edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
          { scope: { runId: run.id }, after, seed },
        )
      ).data!.completionsToReview;
    const walk = async (seed: string) => {
      const ids: string[] = [];
      let after: string | null = null;
      for (;;) {
        const result: any = await page(after, seed);
        ids.push(...result.edges.map((edge: any) => edge.node.id));
        if (!result.pageInfo.hasNextPage) return ids;
        after = result.pageInfo.endCursor;
      }
    };
    const first = await walk("a");
    expect(first).toHaveLength(30);
    expect(new Set(first).size).toBe(30);
    expect(await walk("a")).toEqual(first);
    expect(await walk("b")).not.toEqual(first);
    const nearExact = await api.gql(
      `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: NEAR_EXACT, first: 100) { edges { node { effectiveJudgment { verdict } } } } }`,
      { scope: { runId: run.id } },
    );
    expect(
      nearExact.data?.completionsToReview.edges.every(
        (edge: any) => edge.node.effectiveJudgment.verdict === "NEAR_EXACT",
      ),
    ).toBe(true);
  }, 60_000);
});
