import { Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import { classificationSample, startRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const RUN_PROGRESS = `subscription($id: ID!) { runProgress(runId: $id) { id status doneCount } }`;

/**
 * Subscriptions to a run that does not change: many subscribers share one poll of the database, and when their
 * clients go, the polling stops.
 */
describe("what live progress costs the database", () => {
  let api: TestServer;
  let runId: string;

  beforeAll(async () => {
    // No workers: the run stays QUEUED, so its progress never changes and the streams never end on their own.
    api = await startTestServer("embedded", { MEMICL_IN_PROCESS_WORKERS: "0" });
    const sampleId = await classificationSample(api, "still", {
      rows: 20,
      instances: 4,
      demonstrations: 0,
      shots: [0],
    });
    ({
      run: { id: runId },
    } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "simulated",
      model: "m",
    }));
  }, 60_000);
  afterAll(() => api?.close());

  /** Statements that read the watched run since the last reset. */
  const runReads = () =>
    api.queries.filter((query) => /FROM "run"/.test(query) && !/pgboss/.test(query)).length;

  it("shares one poll among 40 subscribers, and stops polling once they disconnect", async () => {
    const clients: Client[] = [];
    const firsts: Promise<void>[] = [];
    for (let i = 0; i < 40; i += 1) {
      const client = createClient({
        url: api.server.url.replace(/^http/, "ws"),
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      clients.push(client);
      firsts.push(
        new Promise((resolve, reject) =>
          client.subscribe(
            { query: RUN_PROGRESS, variables: { id: runId } },
            { next: () => resolve(), error: reject, complete: () => {} },
          ),
        ),
      );
    }
    await Promise.all(firsts);
    api.resetQueries();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // About four polls in two seconds (every 500 ms), shared by the 40: not 160.
    const whileOpen = runReads();
    expect(whileOpen).toBeGreaterThanOrEqual(1);
    expect(whileOpen).toBeLessThanOrEqual(8);

    await Promise.all(clients.map((client) => client.dispose()));
    await new Promise((resolve) => setTimeout(resolve, 600));
    api.resetQueries();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(runReads()).toBe(0);
  }, 60_000);
});
