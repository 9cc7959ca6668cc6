import { classificationSample } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const ESTIMATE = `query($input: EstimateGridInput!) { estimateGrid(input: $input) { calls } }`;

/** One small request cannot start minutes of CPU: its estimates share a budget of prompts to render. */
describe("the work one request's estimates may do", () => {
  let api: TestServer;
  let sampleId: string;

  beforeAll(async () => {
    api = await startTestServer("embedded", { MEMICL_MAX_ESTIMATE_PROMPTS: "100" });
    // 20 instances; k = 0 and 2: 3 settings x 2 k + 2 performance cells = 8 cells, 160 prompts.
    sampleId = await classificationSample(api, "weighed", {
      rows: 40,
      instances: 20,
      demonstrations: 2,
      shots: [0, 2],
    });
  }, 60_000);
  afterAll(() => api?.close());

  it("refuses an estimate larger than the budget before rendering anything", async () => {
    const response = await api.gql(ESTIMATE, { input: { sampleIds: [sampleId] } });
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringMatching(
        /would render 200 prompts \(10 cells\) and the request may render 100 more/,
      ),
      extensions: { code: "BAD_USER_INPUT" },
    });
  });

  it("shares the budget among a request's aliases", async () => {
    // Memorization at k = 0 only: 4 cells (three settings and the control), 80 prompts each time.
    const input = { sampleIds: [sampleId], kinds: ["MEMORIZATION"], shots: [0] };
    const one = await api.gql(ESTIMATE, { input });
    expect(one.data?.estimateGrid.calls).toBe(80);
    const two = await api.gql(
      `query($input: EstimateGridInput!) { a: estimateGrid(input: $input) { calls } b: estimateGrid(input: $input) { calls } }`,
      { input },
    );
    expect(two.errors).toHaveLength(1);
    expect(two.errors?.[0].message).toMatch(
      /would render 80 prompts \(4 cells\) and the request may render 20 more/,
    );
  });
});
