import { createServices, Services } from "../../../src/app/services";
import { loadConfig } from "../../../src/config/config";
import { createLogger } from "../../../src/logging/logger";
import { reconcile } from "../../../src/run/reconciler";
import { BACKENDS } from "../../support/databases";
import { classificationSample, startRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/**
 * The reconciler looks at a bounded slice of the waiting items a pass, going on where the last pass stopped and
 * starting again at the end: no pass reads a whole backlog, and every item is looked at within a few passes.
 */
describe.each(BACKENDS)("the reconciler's passes over a backlog (%s database)", (backend) => {
  let api: TestServer;
  let services: Services;
  const timing = { leaseSeconds: 30 };
  const logger = createLogger("silent");

  beforeAll(async () => {
    api = await startTestServer(backend);
    services = createServices(api.database, loadConfig({ LOG_LEVEL: "silent" }), logger);
  }, 60_000);
  afterAll(async () => {
    await services?.close();
    await api?.close();
  });

  it("queues a backlog's orphans five at a time, then starts again from the beginning", async () => {
    const sampleId = await classificationSample(api, "slices", {
      rows: 40,
      instances: 12,
      demonstrations: 0,
      shots: [0],
    });
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "simulated",
      model: "m",
    });
    // Every item lost its job.
    await api.database.dataSource.query(
      `DELETE FROM pgboss.job WHERE name LIKE 'memicl-completion.%'
       AND data->>'completionId' IN (SELECT id::text FROM completion WHERE run_id = $1)`,
      [run.id],
    );
    const requeued: number[] = [];
    for (let pass = 0; pass < 4; pass++)
      requeued.push(
        (await reconcile(api.database.dataSource, services.queue, logger, timing, 5, 5))!.requeued,
      );
    // Five, five, the last two (the end: the next pass starts again), and nothing left to queue.
    expect(requeued).toEqual([5, 5, 2, 0]);
  }, 60_000);
});
