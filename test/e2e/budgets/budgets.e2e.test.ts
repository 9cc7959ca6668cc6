import { BudgetGate } from "../../../src/budget/budget-gate";
import { BACKENDS } from "../../support/databases";
import { classificationSample, providersFile, RUN_FIELDS, startRun, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const START_EXPERIMENT = `mutation($input: StartExperimentInput!) {
  startExperiment(input: $input) { experiment { id maxCostUsd } runs { id } } }`;
const SET_BUDGET = `mutation($input: SetBudgetInput!) {
  setBudget(input: $input) { resumedRuns budget { scope maxCostUsd spentUsd inFlightUsd inFlightCalls remainingUsd pausedRuns } } }`;
const EXPERIMENT = `query($id: ID!) { experiment(id: $id) {
  maxCostUsd
  budget { maxCostUsd spentUsd inFlightUsd remainingUsd pausedRuns }
  progress { status costUsd maxCostUsd budgetRemainingUsd pausedRuns waitingReason done expected }
  runs { ${RUN_FIELDS} } } }`;

// Prices high enough that a cent is a few calls: a memorization call here costs about $0.01 (60-90 prompt tokens
// at $100 per million, 20-40 output tokens at $200), its worst case about $0.03 (100 output tokens allowed).
const PRICE = { inputPerMillion: 100, outputPerMillion: 200 };
const TOKEN = "scrape-token-0123456789";

describe.each(BACKENDS)("budgets (%s database)", (backend) => {
  let api: TestServer;
  let sampleId: string;
  let providers: string;

  beforeAll(async () => {
    providers = providersFile({
      priced: { type: "simulated", maxConcurrency: 6, simulation: { latencyMs: 20 }, prices: { m: PRICE } },
      unpriced: { type: "simulated", maxConcurrency: 2 },
      // Priced, but no worker here can call it (its key is not set): the gate's test claims its items itself.
      idle: {
        type: "openai",
        baseUrl: "http://127.0.0.1:9/v1",
        apiKeyEnv: "MEMICL_TEST_UNSET_KEY",
        prices: { m: PRICE },
      },
    });
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providers,
      MEMICL_IN_PROCESS_WORKERS: "6",
      MEMICL_METRICS_TOKEN: TOKEN,
    });
    sampleId = await classificationSample(api, "budgeted", {
      rows: 60,
      instances: 20,
      demonstrations: 0,
      shots: [0],
    });
  }, 60_000);
  afterAll(() => api?.close());

  const experiment = async (id: string) => (await api.gql(EXPERIMENT, { id })).data!.experiment;

  /** Polls until `done`, checking at every look that spending never went above the budget. */
  async function watch(id: string, done: (state: any) => boolean, budgetUsd: number): Promise<any> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const state = await experiment(id);
      expect(state.progress.costUsd).toBeLessThanOrEqual(budgetUsd + 1e-9);
      if (done(state)) return state;
      if (Date.now() > deadline) throw new Error(`not there in time: ${JSON.stringify(state.progress)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("pauses an experiment before a call could take it over budget, says why, and resumes when raised", async () => {
    const started = await api.gql(START_EXPERIMENT, {
      input: {
        name: "capped",
        sampleIds: [sampleId],
        provider: "priced",
        model: "m",
        kinds: ["MEMORIZATION"],
        maxCostUsd: 0.25,
      },
    });
    expect(started.errors).toBeUndefined();
    const id = started.data!.startExperiment.experiment.id;
    expect(started.data!.startExperiment.experiment.maxCostUsd).toBe(0.25);

    const paused = await watch(id, (state) => state.progress.status === "PAUSED_BUDGET", 0.25);
    expect(paused.progress.pausedRuns).toBeGreaterThan(0);
    expect(paused.progress.done).toBeLessThan(paused.progress.expected);
    expect(paused.progress.done).toBeGreaterThan(0);
    expect(paused.progress.waitingReason).toMatch(
      /^budget: the experiment's budget of \$0\.25 is reached: \$0\.\d+ spent, and the next call could cost up to \$0\.0\d+/,
    );
    expect(paused.progress.maxCostUsd).toBe(0.25);
    expect(paused.progress.budgetRemainingUsd).toBeCloseTo(0.25 - paused.progress.costUsd, 9);
    for (const run of paused.runs) expect(["PAUSED_BUDGET", "SUCCEEDED"]).toContain(run.status);
    // Settled: nothing in flight, nothing more spent while paused.
    const settled = await watch(id, (state) => state.budget.inFlightUsd === 0, 0.25);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const still = await experiment(id);
    expect(still.progress.costUsd).toBe(settled.progress.costUsd);
    expect(still.progress.done).toBe(settled.progress.done);
    expect(still.budget).toMatchObject({ maxCostUsd: 0.25, inFlightUsd: 0 });
    expect(still.budget.spentUsd).toBeCloseTo(still.progress.costUsd, 9);

    const metrics = await (
      await fetch(`${api.server.url.replace(/\/graphql$/, "")}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).text();
    expect(metrics).toContain(`memicl_budget_usd{scope="experiment",id="${id}",state="limit"} 0.25`);
    expect(metrics).toMatch(/memicl_cost_usd\{provider="priced"\} \d/);

    const raised = await api.gql(SET_BUDGET, { input: { experimentId: id, maxCostUsd: 100 } });
    expect(raised.errors).toBeUndefined();
    expect(raised.data!.setBudget.resumedRuns).toBe(paused.progress.pausedRuns);
    expect(raised.data!.setBudget.budget).toMatchObject({ scope: "EXPERIMENT", maxCostUsd: 100 });
    const finished = await watch(id, (state) => state.progress.status === "SUCCEEDED", 100);
    expect(finished.progress.done).toBe(finished.progress.expected);
    expect(finished.progress.costUsd).toBeGreaterThan(0.25);
    for (const run of finished.runs) expect(run).toMatchObject({ status: "SUCCEEDED", waitingReason: null });
  }, 90_000);

  it("caps the sampling and scoring methods' runs too (CDD's samples, CoDeC's two passes)", async () => {
    const started = await api.gql(START_EXPERIMENT, {
      input: {
        name: "capped methods",
        sampleIds: [sampleId],
        provider: "priced",
        model: "m",
        methods: ["CDD", "CODEC"],
        cdd: { samples: 4 },
        maxCostUsd: 0.05,
      },
    });
    expect(started.errors).toBeUndefined();
    const id = started.data!.startExperiment.experiment.id;
    const paused = await watch(id, (state) => state.progress.status === "PAUSED_BUDGET", 0.05);
    expect(paused.progress.done).toBeLessThan(paused.progress.expected);
    expect(paused.progress.waitingReason).toMatch(/^budget: the experiment's budget of \$0\.05 is reached/);
    const settled = await watch(id, (state) => state.budget.inFlightUsd === 0, 0.05);
    expect(settled.budget.spentUsd).toBeLessThanOrEqual(0.05);
    expect(new Set(settled.runs.map((run: any) => run.kind))).toEqual(new Set(["CONTINUATION", "LOGPROB"]));
  }, 90_000);

  it("holds one budget across two processes calling for it at once", async () => {
    // A second server on the same database with its own workers: both decide holds of one budget.
    const second = await startTestServer(
      backend,
      {
        MEMICL_PROVIDERS_FILE: providers,
        MEMICL_IN_PROCESS_WORKERS: "6",
      },
      api.database,
    );
    try {
      const started = await api.gql(START_EXPERIMENT, {
        input: {
          name: "shared",
          sampleIds: [sampleId],
          provider: "priced",
          model: "m",
          kinds: ["MEMORIZATION"],
          cache: false,
          // Ten output tokens allowed and used: a call's worst case is close to its cost, so holds that did not
          // see each other would take the spending over.
          memorizationMaxOutputTokens: 10,
          maxCostUsd: 0.3,
        },
      });
      const id = started.data!.startExperiment.experiment.id;
      const paused = await watch(
        id,
        (state) => state.progress.status === "PAUSED_BUDGET" && state.budget.inFlightUsd === 0,
        0.3,
      );
      const [{ spent, calls }] = await api.database.dataSource.query(
        `SELECT sum(c.cost_usd)::float8 AS spent, count(*)::int AS calls
         FROM completion c JOIN run r ON r.id = c.run_id WHERE r.experiment_id = $1 AND c.status = 'SUCCEEDED'`,
        [id],
      );
      expect(spent).toBeLessThanOrEqual(0.3);
      expect(spent).toBeCloseTo(paused.progress.costUsd, 6);
      expect(calls).toBe(paused.progress.done);
      // Close to the budget: what is left is less than about a call's worst case (about $0.01).
      expect(0.3 - spent).toBeLessThan(0.02);
    } finally {
      await second.close();
    }
  }, 60_000);

  it("holds a run's own budget, pauses it again when resumed unchanged, and runs on when it is removed", async () => {
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "FULL_INFORMATION",
      shots: 0,
      provider: "priced",
      model: "m",
      cache: false,
      maxCostUsd: 0.06,
    });
    const paused = await waitForRun(api, run.id, (current) => current.status === "PAUSED_BUDGET");
    expect(paused.waitingReason).toMatch(/^budget: the run's budget of \$0\.06 is reached/);
    expect(Number(paused.costUsd)).toBeLessThanOrEqual(0.06);

    const resumed = await api.gql(
      `mutation($input: RunIdInput!) { resumeRun(input: $input) { run { status } affectedCount } }`,
      { input: { runId: run.id } },
    );
    expect(resumed.errors).toBeUndefined();
    const again = await waitForRun(api, run.id, (current) => current.status === "PAUSED_BUDGET");
    expect(Number(again.costUsd)).toBeLessThanOrEqual(0.06);

    const removed = await api.gql(SET_BUDGET, { input: { runId: run.id, maxCostUsd: null } });
    expect(removed.data!.setBudget).toEqual({ resumedRuns: 1, budget: null });
    const done = await waitForRun(api, run.id, (current) => current.status === "SUCCEEDED");
    expect(done.doneCount).toBe(20);
  }, 60_000);

  it("cancels a paused run", async () => {
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "priced",
      model: "m",
      cache: false,
      maxCostUsd: 0.02,
    });
    await waitForRun(api, run.id, (current) => current.status === "PAUSED_BUDGET");
    const cancelled = await api.gql(
      `mutation($input: RunIdInput!) { cancelRun(input: $input) { run { status } } }`,
      { input: { runId: run.id } },
    );
    expect(cancelled.data?.cancelRun.run.status).toBe("CANCELLED");
  });

  it("lets exactly as many calls hold as fit when they all ask at once", async () => {
    // "idle" has no key here: a live worker of another process (a row with a fresh beat) is the one that could
    // call it, so its runs are accepted, and no worker here takes their items.
    await api.database.dataSource.query(
      `INSERT INTO worker (id, host, pid, role, concurrency, providers, code_version)
       VALUES (gen_random_uuid(), 'elsewhere', 1, 'worker', 1, ARRAY['idle'], 'test')`,
    );
    const started = await api.gql(START_EXPERIMENT, {
      input: {
        name: "gated",
        sampleIds: [sampleId],
        provider: "idle",
        model: "m",
        kinds: ["PERFORMANCE"],
        maxCostUsd: 0.35,
      },
    });
    const id = started.data!.startExperiment.experiment.id;
    const claimAll = async () =>
      (
        await api.database.dataSource.query(
          `UPDATE completion c SET status = 'RUNNING', lease_token = gen_random_uuid(),
              lease_until = clock_timestamp() + interval '1 minute',
              lease_owner = (SELECT id FROM worker LIMIT 1)
       FROM run r WHERE r.id = c.run_id AND r.experiment_id = $1 AND c.status = 'PENDING'
       RETURNING c.id::text AS id, c.run_id, c.lease_token`,
          [id],
        )
      )[0] as { id: string; run_id: string; lease_token: string }[];
    const gate = new BudgetGate(api.database.dataSource);
    // Slow start: no call of this budget has been seen to keep to max_tokens yet, so one call holds at a time.
    const first = await claimAll();
    const firstOutcomes = await Promise.all(first.slice(0, 12).map((claim) => gate.hold(claim, 0.01)));
    expect(firstOutcomes.filter((outcome) => outcome.kind === "fits")).toHaveLength(1);
    // Three calls stored within max_tokens (and free): four may be in flight now. Everything else goes back.
    await api.database.dataSource.query(
      `UPDATE completion SET status = CASE WHEN id = ANY($1::bigint[]) THEN 'SUCCEEDED'::completion_status_enum
                                           ELSE 'PENDING'::completion_status_enum END,
              completion_tokens = CASE WHEN id = ANY($1::bigint[]) THEN 1 END, cost_usd = 0,
              reserved_usd = NULL, reserved_token = NULL, lease_token = NULL, lease_until = NULL, lease_owner = NULL
       WHERE run_id IN (SELECT id FROM run WHERE experiment_id = $2) AND status IN ('RUNNING', 'PENDING')`,
      [first.slice(0, 3).map((claim) => claim.id), id],
    );
    const claims = await claimAll();
    expect(claims.length).toBeGreaterThanOrEqual(12);
    // $0.10 each: three fit under $0.35; the others find them in flight (and wait), none pauses.
    const outcomes = await Promise.all(claims.slice(0, 12).map((claim) => gate.hold(claim, 0.1)));
    const kinds = outcomes.map((outcome) => outcome.kind).sort();
    expect(kinds.filter((kind) => kind === "fits")).toHaveLength(3);
    expect(kinds.filter((kind) => kind === "wait")).toHaveLength(9);
    const [{ held }] = await api.database.dataSource.query(
      `SELECT count(*)::int AS held FROM completion c JOIN run r ON r.id = c.run_id
       WHERE r.experiment_id = $1 AND c.status = 'RUNNING' AND c.reserved_token = c.lease_token`,
      [id],
    );
    expect(held).toBe(3);
    // The waiting ones were given back; a lone call of $0.40 can never fit: the experiment pauses.
    const [rest]: [{ id: string; run_id: string; lease_token: string }[], number] =
      await api.database.dataSource.query(
        `UPDATE completion c SET status = 'RUNNING', lease_token = gen_random_uuid(),
              lease_until = clock_timestamp() + interval '1 minute',
              -- a live worker's, so this server's reconciler leaves the claims alone
              lease_owner = (SELECT id FROM worker LIMIT 1)
       FROM run r WHERE r.id = c.run_id AND r.experiment_id = $1 AND c.status = 'PENDING'
       RETURNING c.id::text AS id, c.run_id, c.lease_token`,
        [id],
      );
    expect((await gate.hold(rest[0], 0.4)).kind).toBe("pause");
    const [{ statuses }] = await api.database.dataSource.query(
      "SELECT array_agg(DISTINCT status::text) AS statuses FROM run WHERE experiment_id = $1",
      [id],
    );
    expect(statuses).toEqual(["PAUSED_BUDGET"]);
  });

  it("refuses a budget where the provider has no price for the model", async () => {
    const experimentResponse = await api.gql(START_EXPERIMENT, {
      input: { name: "x", sampleIds: [sampleId], provider: "unpriced", model: "m", maxCostUsd: 5 },
    });
    expect(experimentResponse.errors?.[0]).toMatchObject({
      message: expect.stringMatching(
        /^maxCostUsd: provider "unpriced" has no price for model "m" \(priced: none\)/,
      ),
      extensions: { code: "BAD_USER_INPUT" },
    });
    const runResponse = await api.gql(
      `mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`,
      {
        input: {
          sampleId,
          kind: "PERFORMANCE",
          shots: 0,
          provider: "priced",
          model: "other",
          maxCostUsd: 5,
        },
      },
    );
    expect(runResponse.errors?.[0].message).toMatch(/no price for model "other" \(priced: m\)/);
    const unbudgeted = await api.gql(START_EXPERIMENT, {
      input: {
        name: "free",
        sampleIds: [sampleId],
        provider: "unpriced",
        model: "m",
        kinds: ["PERFORMANCE"],
      },
    });
    const id = unbudgeted.data!.startExperiment.experiment.id;
    const set = await api.gql(SET_BUDGET, { input: { experimentId: id, maxCostUsd: 1 } });
    expect(set.errors?.[0].message).toMatch(/has no price for model "m"/);
    const both = await api.gql(SET_BUDGET, { input: { maxCostUsd: 1 } });
    expect(both.errors?.[0].message).toMatch(/give experimentId or runId/);
    const negative = await api.gql(SET_BUDGET, { input: { experimentId: id, maxCostUsd: -1 } });
    expect(negative.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });
});
