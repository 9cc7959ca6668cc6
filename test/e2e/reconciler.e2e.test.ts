import { createServices, Services } from "../../src/api/services";
import { loadConfig } from "../../src/config/config";
import { createLogger } from "../../src/logging/logger";
import { reconcile } from "../../src/run/reconciler";
import { BACKENDS } from "../support/databases";
import { classificationSample, startRun } from "../support/runs";
import { startTestServer, TestServer } from "../support/server";

/**
 * The reconciler queues again only what lost its job: an item a worker fetched a moment ago and has not claimed
 * yet still has one; an item whose job a dead worker fetched long ago does not.
 */
describe.each(BACKENDS)("the reconciler (%s database)", (backend) => {
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

  it("leaves an item fetched but not yet claimed alone, and queues one a dead worker fetched long ago", async () => {
    const sampleId = await classificationSample(api, "fetched", {
      rows: 20,
      instances: 6,
      demonstrations: 0,
      shots: [0],
    });
    await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "simulated",
      model: "m",
    });
    const jobs = () =>
      api.database.dataSource.query(
        "SELECT state::text AS state, count(*)::int AS count FROM pgboss.job WHERE name LIKE 'memicl-completion.%' GROUP BY state ORDER BY state",
      );
    expect(await jobs()).toEqual([{ state: "created", count: 6 }]);
    expect((await reconcile(api.database.dataSource, services.queue, logger, timing))?.requeued).toBe(0);

    // A worker has fetched the jobs (active) and not claimed the items yet: they are still PENDING.
    await api.database.dataSource.query(
      "UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name LIKE 'memicl-completion.%'",
    );
    expect((await reconcile(api.database.dataSource, services.queue, logger, timing))?.requeued).toBe(0);
    expect(await jobs()).toEqual([{ state: "active", count: 6 }]);

    // Fetched an hour ago by a worker that never claimed them: lost, queued again.
    await api.database.dataSource.query(
      "UPDATE pgboss.job SET started_on = now() - interval '1 hour' WHERE name LIKE 'memicl-completion.%'",
    );
    expect((await reconcile(api.database.dataSource, services.queue, logger, timing))?.requeued).toBe(6);
  }, 60_000);
});
