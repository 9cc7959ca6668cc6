import { DataSource, DataSourceOptions } from "typeorm";
import { createCoreServices } from "../../../src/app/core-services";
import { createServices, Services } from "../../../src/app/services";
import { startWorkers } from "../../../src/app/workers";
import { loadConfig } from "../../../src/config/config";
import { createLogger } from "../../../src/logging/logger";
import { reconcile } from "../../../src/run/reconciler";
import { BACKENDS } from "../../support/databases";
import { patient } from "../../support/patience";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/**
 * Upkeep never waits for a second pooled connection while holding a first: with one connection in the pool, the
 * reconciler's pass and an experiment's metric refresh both finish (each held a transaction open for its lock
 * and then asked the pool for another: at a pool of two the two deadlocked for good), and they leave no
 * connection idle in a transaction.
 */
describe.each(BACKENDS)("upkeep on a pool of one connection (%s database)", (backend) => {
  let api: TestServer;
  let services: Services;
  let narrow: DataSource;
  const logger = createLogger("silent");

  beforeAll(async () => {
    // The server has no workers (so no reconciler of its own races the test's): the test's own run them.
    const providers = providersFile({ sim: { type: "simulated" } });
    api = await startTestServer(backend, { MEMICL_PROVIDERS_FILE: providers });
    services = createServices(
      api.database,
      loadConfig({ LOG_LEVEL: "silent", MEMICL_PROVIDERS_FILE: providers }),
      logger,
    );
    narrow = new DataSource({ ...api.database.dataSource.options, poolSize: 1 } as DataSourceOptions);
    await narrow.initialize();
  }, 60_000);
  afterAll(async () => {
    await narrow?.destroy();
    await services?.close();
    await api?.close();
  });

  it("reconciles and refreshes an experiment's rows, one statement at a time", async () => {
    const sampleId = await classificationSample(api, "narrow", {
      rows: 20,
      instances: 6,
      demonstrations: 2,
      shots: [0],
    });
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "narrow",
          sampleIds: [sampleId],
          kinds: ["MEMORIZATION"],
          settings: ["ONLY_SEGMENT_PAIRS"],
          provider: "sim",
          model: "m",
        },
      },
    );
    expect(started.errors).toBeUndefined();
    const workers = await startWorkers(
      services,
      loadConfig({
        LOG_LEVEL: "silent",
        MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated" } }),
      }),
      { role: "worker", concurrency: 4, logger },
    );
    try {
      for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 60_000);
    } finally {
      await workers.stop();
    }
    const result = await reconcile(narrow, services.queue, logger, { leaseSeconds: 30 });
    expect(result).not.toBeNull();
    const core = createCoreServices(narrow, loadConfig({ LOG_LEVEL: "silent" }));
    // Stale again, whatever the server's own refresher did meanwhile: the refresh finishes on one connection
    // (null only when the server's refresher holds the lease at that moment).
    const experimentId = started.data!.startExperiment.experiment.id;
    await narrow.query("DELETE FROM metric_state WHERE experiment_id = $1", [experimentId]);
    const written = await core.reportRows.refreshUnlessBusy(experimentId);
    expect(written === null || written > 0).toBe(true);
    // The rows are there (the server's own refresher may have written them when it held the lease).
    const metricRows = async () =>
      Number(
        (await narrow.query("SELECT count(*) AS n FROM metric WHERE experiment_id = $1", [experimentId]))[0]
          .n,
      );
    expect(await eventually(async () => (await metricRows()) > 0)).toBe(true);
    // The leases are given back, and no connection of this database stays idle inside a transaction.
    expect(
      await eventually(async () => (await narrow.query("SELECT name FROM maintenance_lease")).length === 0),
    ).toBe(true);
    const idle: { n: number }[] = await narrow.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
         AND state = 'idle in transaction' AND state_change < clock_timestamp() - interval '5 seconds'`,
    );
    expect(idle[0].n).toBe(0);
  }, 120_000);

  it("lets another process take the reconciler's lease once its holder stops renewing it", async () => {
    // A holder that stopped (its process hung) left its lease: it lapses, and the next pass takes it.
    await narrow.query(
      `INSERT INTO maintenance_lease (name, holder, until) VALUES ('reconciler', 'hung', clock_timestamp() + interval '1 hour')`,
    );
    expect(await reconcile(narrow, services.queue, logger, { leaseSeconds: 30 })).toBeNull();
    await narrow.query(
      "UPDATE maintenance_lease SET until = clock_timestamp() - interval '1 second' WHERE name = 'reconciler'",
    );
    expect(await reconcile(narrow, services.queue, logger, { leaseSeconds: 30 })).not.toBeNull();
    expect(await narrow.query("SELECT holder FROM maintenance_lease")).toEqual([]);
  }, 60_000);
});

/** Whether `check` holds within a load-scaled deadline, asked every 100 ms. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + patient(30_000);
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
