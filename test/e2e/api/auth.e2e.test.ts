import { ApiKeyService } from "../../../src/auth/api-key.service";
import { runCli, startServe } from "../../support/cli";
import { BACKENDS, createTestDatabase } from "../../support/databases";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/** One GraphQL request with an optional bearer key. */
async function call(
  api: TestServer,
  key: string | null,
  query: string,
  variables: Record<string, unknown> = {},
) {
  const response = await fetch(api.server.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, ...((await response.json()) as { data?: any; errors?: any[] }) };
}

const code = (response: { errors?: any[] }) => response.errors?.[0]?.extensions?.code ?? null;

describe.each(BACKENDS)("API keys and roles (%s database)", (backend) => {
  let api: TestServer;
  let open: TestServer;
  const keys: Record<string, string> = {};
  let completionId = "";
  let experimentId = "";
  let sampleId = "";

  beforeAll(async () => {
    // Set up without authentication (what a lab does before turning keys on), then serve with keys on.
    open = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated" } }),
      MEMICL_IN_PROCESS_WORKERS: "4",
    });
    sampleId = await classificationSample(open, "guarded", {
      rows: 40,
      instances: 6,
      demonstrations: 2,
      shots: [0],
    });
    const started = await open.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id kind } } }`,
      {
        input: {
          name: "guarded",
          sampleIds: [sampleId],
          provider: "sim",
          model: "m",
          settings: ["FULL_INFORMATION"],
          performanceRepeats: 1,
        },
      },
    );
    experimentId = started.data!.startExperiment.experiment.id;
    for (const run of started.data!.startExperiment.runs) await waitForRun(open, run.id, finished);
    const memorization = started.data!.startExperiment.runs.find((run: any) => run.kind === "MEMORIZATION");
    const completions = await open.gql(
      `query($id: ID!) { run(id: $id) { completions(first: 1) { edges { node { id } } } } }`,
      {
        id: memorization.id,
      },
    );
    completionId = completions.data!.run.completions.edges[0].node.id;
    const service = new ApiKeyService(open.database.dataSource);
    for (const role of ["viewer", "reviewer", "runner", "admin"])
      keys[role] = (await service.create(`${role}-key`, role)).key;
    keys.revoked = (await service.create("gone", "admin")).key;
    await service.revoke("gone");
    // The same database served again with keys on, as a lab turns them on after setting up.
    await open.server.close();
    api = await startTestServer(
      backend,
      { MEMICL_AUTH: "keys", MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated" } }) },
      open.database,
    );
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await open?.database.close();
  });

  const DATASETS = `{ datasets(first: 5) { edges { node { name } } } }`;
  const REVIEW = `mutation($input: ReviewCompletionInput!) { reviewCompletion(input: $input) { judgment { judgeName verdict } } }`;

  it("refuses a request without a key, with a bad key, or with a revoked key (401, UNAUTHENTICATED)", async () => {
    for (const key of [null, "memicl_not-a-key", "something else", keys.revoked]) {
      const response = await call(api, key, DATASETS);
      expect({ key, status: response.status, code: code(response) }).toEqual({
        key,
        status: 401,
        code: "UNAUTHENTICATED",
      });
    }
    const health = await fetch(api.server.url.replace(/\/graphql$/, "/health"));
    expect(health.status).toBe(200);
  });

  it("shows where workers run (host, pid) to admins only", async () => {
    const viewer = await call(api, keys.viewer, "{ workers { host pid } }");
    expect(code(viewer)).toBe("FORBIDDEN");
    expect(
      (await call(api, keys.viewer, "{ workers { role concurrency providers } }")).errors,
    ).toBeUndefined();
    expect((await call(api, keys.admin, "{ workers { host pid } }")).errors).toBeUndefined();
  });

  it("lets a viewer read, outputs included, and nothing more", async () => {
    const read = await call(api, keys.viewer, DATASETS);
    expect(read.errors).toBeUndefined();
    expect(read.data.datasets.edges.map((edge: any) => edge.node.name)).toContain("guarded");
    const outputs = await call(
      api,
      keys.viewer,
      `query($id: ID!) { experiment(id: $id) { runs { completions(first: 1) { edges { node { output } } } } } }`,
      {
        id: experimentId,
      },
    );
    expect(outputs.errors).toBeUndefined();
    for (const mutation of [
      [REVIEW, { input: { completionId, verdict: "EXACT" } }],
      [`mutation { cancelRun(input: { runId: "00000000-0000-0000-0000-000000000000" }) { run { id } } }`, {}],
    ] as const) {
      const response = await call(api, keys.viewer, mutation[0], mutation[1]);
      expect(code(response)).toBe("FORBIDDEN");
      expect(response.errors![0].message).toMatch(/role viewer.*needs the (reviewer|runner) role/);
    }
    const queue = await call(
      api,
      keys.viewer,
      `query($id: ID!) { completionsToReview(scope: { experimentId: $id }, reason: NEAR_EXACT) { edges { node { id } } } }`,
      {
        id: experimentId,
      },
    );
    expect(code(queue)).toBe("FORBIDDEN");
  });

  it("records a reviewer's review under the key's name, and refuses another name", async () => {
    const review = await call(api, keys.reviewer, REVIEW, { input: { completionId, verdict: "INEXACT" } });
    expect(review.errors).toBeUndefined();
    expect(review.data.reviewCompletion.judgment).toEqual({ judgeName: "reviewer-key", verdict: "INEXACT" });
    const claimed = await call(api, keys.reviewer, REVIEW, {
      input: { completionId, verdict: "EXACT", reviewer: "someone-else" },
    });
    expect(code(claimed)).toBe("FORBIDDEN");
    const runs = await call(
      api,
      keys.reviewer,
      `mutation { cancelRun(input: { runId: "00000000-0000-0000-0000-000000000000" }) { run { id } } }`,
    );
    expect(code(runs)).toBe("FORBIDDEN");
  });

  it("lets a runner import and start runs, and only an admin change templates", async () => {
    const imported = await call(
      api,
      keys.runner,
      `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { name } } }`,
      {
        input: { name: "by-runner", content: '{"text": "a b c d e f", "label": "x"}\n', format: "jsonl" },
      },
    );
    expect(imported.errors).toBeUndefined();
    const template = `mutation($input: CreatePromptTemplateVersionInput!) { createPromptTemplateVersion(input: $input) { version } }`;
    const input = {
      input: {
        key: "performance/CLASSIFICATION",
        instruction: "Label it: {{labels}}.",
        demonstration: "Text: {{text}}\nLabel: {{label}}",
        query: "Text: {{text}}\nLabel:",
      },
    };
    const START_RUN = `mutation($input: StartRunInput!) { startRun(input: $input) { run { id status } } }`;
    const run = {
      input: {
        sampleId,
        kind: "MEMORIZATION",
        setting: "ONLY_SEGMENT_PAIRS",
        shots: 0,
        provider: "sim",
        model: "m2",
      },
    };
    expect(code(await call(api, keys.viewer, START_RUN, run))).toBe("FORBIDDEN");
    const started = await call(api, keys.runner, START_RUN, run);
    expect(started.errors).toBeUndefined();
    expect(started.data.startRun.run.status).toBe("QUEUED");
    expect(code(await call(api, keys.runner, template, input))).toBe("FORBIDDEN");
    const created = await call(api, keys.admin, template, input);
    expect(created.errors).toBeUndefined();
  });

  it("guards the export route with the same keys", async () => {
    const url = `${api.server.url.replace(/\/graphql$/, "")}/export/experiments/${experimentId}/completions.csv`;
    expect((await fetch(url)).status).toBe(401);
    const allowed = await fetch(url, { headers: { authorization: `Bearer ${keys.viewer}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("completion_id");
    const metrics = `${api.server.url.replace(/\/graphql$/, "")}/metrics`;
    expect((await fetch(metrics)).status).toBe(401);
    expect((await fetch(metrics, { headers: { authorization: `Bearer ${keys.viewer}` } })).status).toBe(200);
  });
});

describe("memicl keys", () => {
  it("creates a key printed once, lists it without the secret, and revokes it", async () => {
    // A database of the test server's (the embedded data folder is what test/e2e/cli-data-folder tests).
    const database = await createTestDatabase("embedded");
    const env = { DATABASE_URL: database.url };
    try {
      const created = await runCli(["keys", "create", "--name", "ana", "--role", "reviewer"], env);
      expect(created.code).toBe(0);
      const key = created.stdout.trim();
      expect(key).toMatch(/^memicl_[\w-]{32}$/);
      expect(created.stderr).toMatch(/shown once/);
      const bad = await runCli(["keys", "create", "--name", "bob", "--role", "owner"], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/role must be one of viewer, reviewer, runner, admin/);
      const listed = await runCli(["keys", "list"], env);
      expect(listed.stdout).toMatch(/^ana\treviewer\tmemicl_\S+\.\.\.\tlive\tnever used/m);
      expect(listed.stdout).not.toContain(key);
      const revoked = await runCli(["keys", "revoke", "ana"], env);
      expect(revoked.stdout).toMatch(/revoked key "ana"/);
      expect((await runCli(["keys", "list"], env)).stdout).toMatch(/^ana\treviewer\t\S+\trevoked /m);
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe("serving beyond loopback", () => {
  it("starts on 0.0.0.0 once keys are on, and answers only requests with a key", async () => {
    const open = await startTestServer("embedded");
    const { key } = await new ApiKeyService(open.database.dataSource).create("remote", "viewer");
    await open.server.close();
    const serve = await startServe({
      HOST: "0.0.0.0",
      MEMICL_AUTH: "keys",
      DATABASE_URL: open.database.url,
      MEMICL_IN_PROCESS_WORKERS: "0",
    });
    try {
      const ask = (headers: Record<string, string>) =>
        fetch(`${serve.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ query: "{ datasetCount }" }),
        });
      expect((await ask({})).status).toBe(401);
      const allowed = await ask({ authorization: `Bearer ${key}` });
      expect(allowed.status).toBe(200);
      expect(await allowed.json()).toEqual({ data: { datasetCount: 0 } });
    } finally {
      await serve.stop();
      await open.database.close();
    }
  }, 60_000);
});
