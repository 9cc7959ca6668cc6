import { ApiKeyService } from "../../../src/auth/api-key.service";
import { BACKENDS } from "../../support/databases";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

async function call(api: TestServer, key: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(api.server.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, ...((await response.json()) as { data?: any; errors?: any[] }) };
}

const code = (response: { errors?: any[] }) => response.errors?.[0]?.extensions?.code ?? null;

const QUEUE = `query($scope: JudgingScope!, $after: String) {
  completionsToReview(scope: $scope, first: 3, after: $after) {
    edges { node { id output extractedAnswer run { setting shots } sampledInstance { initialSegment subsequentSegment } } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const REVIEW = `mutation($input: ReviewCompletionInput!) {
  reviewCompletion(input: $input) { judgment { judgeName verdict } completion { id } }
}`;

describe.each(BACKENDS)("blind, independent review through the API (%s database)", (backend) => {
  let api: TestServer;
  let open: TestServer;
  const keys: Record<string, string> = {};
  let scope: { experimentId: string };

  beforeAll(async () => {
    // A model that recalls every instance, half of them near-exactly.
    open = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({
        sim: { type: "simulated", simulation: { memorizedAtZeroShot: 1, nearExactShare: 0.5, seed: 3 } },
      }),
      MEMICL_IN_PROCESS_WORKERS: "4",
    });
    const sampleId = await classificationSample(open, "blind", {
      rows: 40,
      instances: 8,
      demonstrations: 2,
      shots: [0],
    });
    const started = await open.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "blind",
          sampleIds: [sampleId],
          provider: "sim",
          model: "secret-model",
          settings: ["FULL_INFORMATION"],
          performanceRepeats: 1,
        },
      },
    );
    scope = { experimentId: started.data!.startExperiment.experiment.id };
    for (const run of started.data!.startExperiment.runs) await waitForRun(open, run.id, finished);
    // A lenient second judgment (heuristic-5 at a ROUGE-L of 0.01) routes most answers to review as near-exact.
    const rejudged = await open.gql(
      `mutation($input: RejudgeInput!) { rejudge(input: $input) { judgedCount } }`,
      {
        input: {
          scope,
          judge: { kind: "HEURISTIC", judgeVersion: "heuristic-5" },
          rougeL: 0.01,
          contentPrecision: 0,
          contentRecall: 0,
        },
      },
    );
    expect(rejudged.errors).toBeUndefined();
    const service = new ApiKeyService(open.database.dataSource);
    keys.ana = (await service.create("ana", "reviewer", true)).key;
    keys.bo = (await service.create("bo", "reviewer", true)).key;
    keys.admin = (await service.create("lead", "admin")).key;
    await expect(service.create("blind-admin", "admin", true)).rejects.toThrow(/a blind key is a reviewer's/);
    // The same database served again with keys on, as a lab turns them on after setting up.
    await open.server.close();
    api = await startTestServer(
      backend,
      { MEMICL_AUTH: "keys", MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated" } }) },
      open.database,
    );
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await open?.database.close();
  });

  /** The ids a reviewer's own ROUTED queue holds, every page. */
  async function queue(key: string): Promise<string[]> {
    const ids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await call(api, key, QUEUE, { scope, after });
      expect(page.errors).toBeUndefined();
      const connection: any = page.data.completionsToReview;
      ids.push(...connection.edges.map((edge: any) => edge.node.id));
      if (!connection.pageInfo.hasNextPage) return ids;
      after = connection.pageInfo.endCursor;
    }
  }

  it("gives each reviewer every routed item, whatever the other reviewed, and agreement on all of them", async () => {
    const routed = await call(
      api,
      keys.admin,
      `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: ROUTED, first: 100) { edges { node { id } } } }`,
      { scope },
    );
    const all = routed.data.completionsToReview.edges.map((edge: any) => edge.node.id).sort();
    expect(all.length).toBeGreaterThan(2);
    // ana reviews everything first; bo's queue is still whole, then ana's and bo's are empty.
    const anaQueue = await queue(keys.ana);
    expect([...anaQueue].sort()).toEqual(all);
    for (const [index, id] of anaQueue.entries()) {
      const review = await call(api, keys.ana, REVIEW, {
        input: { completionId: id, verdict: index % 2 === 0 ? "NEAR_EXACT" : "INEXACT" },
      });
      expect(review.errors).toBeUndefined();
      expect(review.data.reviewCompletion.judgment.judgeName).toBe("ana");
    }
    expect(await queue(keys.ana)).toEqual([]);
    const boQueue = await queue(keys.bo);
    expect([...boQueue].sort()).toEqual(all);
    for (const id of boQueue)
      expect(
        (await call(api, keys.bo, REVIEW, { input: { completionId: id, verdict: "NEAR_EXACT" } })).errors,
      ).toBeUndefined();
    expect(await queue(keys.bo)).toEqual([]);
    const agreement = await call(
      api,
      keys.admin,
      `query($scope: JudgingScope!) { reviewerAgreement(scope: $scope) { reviewers items excluded statistic } }`,
      { scope },
    );
    expect(agreement.data.reviewerAgreement).toEqual({
      reviewers: ["ana", "bo"],
      items: all.length,
      excluded: 0,
      statistic: "COHEN",
    });
  });

  it("never lets a blind reviewer read a verdict, another reviewer's, or the model", async () => {
    const forbidden: [string, Record<string, unknown>][] = [
      [
        `query($scope: JudgingScope!) { completionsToReview(scope: $scope) { edges { node { effectiveJudgment { verdict } } } } }`,
        { scope },
      ],
      [
        `query($scope: JudgingScope!) { completionsToReview(scope: $scope) { edges { node { judgments { verdict judgeName } } } } }`,
        { scope },
      ],
      [
        `query($scope: JudgingScope!) { completionsToReview(scope: $scope) { edges { node { run { model provider } } } } }`,
        { scope },
      ],
      [
        `query($scope: JudgingScope!) { completionsToReview(scope: $scope) { edges { node { reportedModel } } } }`,
        { scope },
      ],
      [
        `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: SAMPLE) { edges { node { run { experimentId judge } } } } }`,
        { scope },
      ],
      [`query($id: ID!) { experiment(id: $id) { name } }`, { id: scope.experimentId }],
      [`query($scope: JudgingScope!) { reviewerAgreement(scope: $scope) { kappa } }`, { scope }],
      [`{ experiments(first: 5) { edges { node { id } } } }`, {}],
      [
        `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: NEAR_EXACT) { edges { node { id } } } }`,
        { scope },
      ],
      [
        `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reviewer: "bo") { edges { node { id } } } }`,
        { scope },
      ],
    ];
    for (const [query, variables] of forbidden) {
      const response = await call(api, keys.ana, query, variables);
      expect({
        query,
        code: code(response),
        data: response.data?.completionsToReview?.edges ?? null,
      }).toEqual({
        query,
        code: "FORBIDDEN",
        data: null,
      });
    }
    // The refusal names what is hidden.
    const refused = await call(api, keys.ana, forbidden[2][0], forbidden[2][1]);
    expect(refused.errors![0].message).toMatch(/reviews blind: it may not read Run\.model, Run\.provider/);
    // The queue itself serves what reviewing needs; a key that is not blind reads the rest.
    const sample = await call(
      api,
      keys.ana,
      `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: SAMPLE, first: 1) { edges { node { id output sampledInstance { initialSegment subsequentSegment } run { setting shots } } } } }`,
      { scope },
    );
    expect(sample.errors).toBeUndefined();
    expect(sample.data.completionsToReview.edges).toHaveLength(1);
    const lead = await call(api, keys.admin, forbidden[2][0], forbidden[2][1]);
    expect(lead.errors).toBeUndefined();
  });

  it("refuses a blind key on every route outside GraphQL that serves data, and serves a seeing key there", async () => {
    // Liveness and readiness reveal nothing; everything else the app routes is walked, whatever is added later.
    const open = new Set(["GET /health", "GET /ready", "GET /"]);
    const walked = api.server.routes.filter((route) => !open.has(route));
    expect(walked).toEqual(
      expect.arrayContaining([
        "GET /metrics",
        "GET /export/experiments/:id/report.csv",
        "GET /export/comparison.csv",
        "GET /export/experiments/:id/completions.:format",
      ]),
    );
    const base = api.server.url.replace(/\/graphql$/, "");
    for (const route of walked) {
      const [method, pattern] = route.split(" ");
      const path = pattern
        .replace(":id", scope.experimentId)
        .replace(":format", "jsonl")
        .concat(pattern.includes("comparison") ? `?experiments=${scope.experimentId}` : "");
      const get = (key: string) =>
        fetch(base + path, { method, headers: { authorization: `Bearer ${key}` } });
      const blind = await get(keys.ana);
      const body = await blind.text();
      expect({
        route,
        status: blind.status,
        leaks: /secret-model|NEAR_EXACT|HUMAN|"ana"|bo/.test(body),
      }).toEqual({
        route,
        status: 403,
        leaks: false,
      });
      expect(JSON.parse(body).errors[0].message).toMatch(/reviews blind/);
      // A seeing key passes the guard (comparison.csv then asks for two experiments: 400, not a refusal).
      const seeing = (await get(keys.admin)).status;
      expect({ route, refused: seeing === 401 || seeing === 403 }).toEqual({ route, refused: false });
    }
  });

  it("records a blind reviewer's verdict only on what its queue served it", async () => {
    // An item of the experiment that ROUTED does not serve (a sample item a non-blind lead sees), and a made-up id.
    const all = await call(
      api,
      keys.admin,
      `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: SAMPLE, first: 100) { edges { node { id } } } }`,
      { scope },
    );
    const ids: string[] = all.data.completionsToReview.edges.map((edge: any) => edge.node.id);
    const carl = (await new ApiKeyService(api.database.dataSource).create("carl", "reviewer", true)).key;
    const before = await call(
      api,
      keys.admin,
      `query($scope: JudgingScope!) { reviewerAgreement(scope: $scope) { items } }`,
      { scope },
    );
    for (const id of ids) {
      const review = await call(api, carl, REVIEW, { input: { completionId: id, verdict: "EXACT" } });
      expect({ id, code: code(review) }).toEqual({ id, code: "FORBIDDEN" });
    }
    expect(
      (
        await call(
          api,
          keys.admin,
          `query($scope: JudgingScope!) { reviewerAgreement(scope: $scope) { items reviewers } }`,
          { scope },
        )
      ).data.reviewerAgreement.reviewers,
    ).not.toContain("carl");
    expect(before.errors).toBeUndefined();
    // Once served, the same item is reviewed.
    const served = await call(
      api,
      carl,
      `query($scope: JudgingScope!) { completionsToReview(scope: $scope, reason: SAMPLE, first: 1) { edges { node { id } } } }`,
      { scope },
    );
    const [first] = served.data.completionsToReview.edges.map((edge: any) => edge.node.id);
    const review = await call(api, carl, REVIEW, { input: { completionId: first, verdict: "EXACT" } });
    expect(review.errors).toBeUndefined();
    expect(review.data.reviewCompletion.judgment.judgeName).toBe("carl");
  });

  it("tells a blind key who it is, so a page asks for nothing it may not read", async () => {
    const me = await call(api, keys.ana, `{ currentKey { name role blind } version { codeVersion } }`);
    expect(me.errors).toBeUndefined();
    expect(me.data.currentKey).toEqual({ name: "ana", role: "reviewer", blind: true });
    expect((await call(api, keys.admin, `{ currentKey { blind } }`)).data.currentKey).toEqual({
      blind: false,
    });
  });
});
