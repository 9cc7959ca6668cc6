import { ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../src/common/free-port";
import { MEMICL_COMMAND, ServeProcess, servedGql, startServe } from "../support/cli";
import { adminUrlOf, BACKENDS, dropDatabase, withClient } from "../support/databases";
import { classificationSample, providersFile } from "../support/runs";
import type { TestServer } from "../support/server";

/**
 * memicl through PgBouncer in transaction mode: migrations, the queue's setup, the reconciler, `memicl serve`'s
 * requests and a separate `memicl worker`'s calls, on a database made empty for the test (so the migrations run
 * through the pooler too). PgBouncer is Debian's package; CI installs it, and the test fails there rather than
 * skip when it is missing.
 */
const PGBOUNCER = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((file) => fs.existsSync(file));
const describeWithPgBouncer =
  PGBOUNCER || process.env.CI === "true" ? describe.each(BACKENDS) : describe.skip.each(BACKENDS);
if (!PGBOUNCER && process.env.CI !== "true")
  console.warn("skipping the PgBouncer test: pgbouncer is not installed");

/** PgBouncer in front of one database, in transaction mode, on a free port; resolves when it accepts connections. */
async function startPgBouncer(serverUrl: string, database: string) {
  if (!PGBOUNCER) throw new Error("pgbouncer is not installed (apt-get install pgbouncer)");
  const server = new URL(serverUrl);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-pgbouncer-"));
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || 5432}`,
    `dbname=${database}`,
    `user=${decodeURIComponent(server.username)}`,
    ...(server.password ? [`password=${decodeURIComponent(server.password)}`] : []),
  ].join(" ");
  const ini = path.join(dir, "pgbouncer.ini");
  fs.writeFileSync(
    ini,
    [
      "[databases]",
      `memicl = ${target}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      "auth_type = any",
      "pool_mode = transaction",
      // Statements spread over the server connections, as on a busy pooler: what a session feature would need
      // (the same server connection from one statement to the next) does not happen by luck.
      "server_round_robin = 1",
      "default_pool_size = 6",
      "max_client_conn = 500",
      "ignore_startup_parameters = extra_float_digits,options",
      "",
    ].join("\n"),
  );
  fs.chmodSync(ini, 0o644);
  // PgBouncer refuses to run as root; -u switches to another user.
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ["-u", "nobody"] : []), ini], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `postgres://${encodeURIComponent(decodeURIComponent(server.username))}@127.0.0.1:${port}/memicl`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${output}`);
    try {
      await withClient(url, (client) => client.query("SELECT 1"));
      break;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`pgbouncer did not start: ${output} ${error}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGINT");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeWithPgBouncer("memicl through PgBouncer in transaction mode (%s database)", (backend) => {
  const database = `memicl_pgbouncer_${process.pid}_${backend}`;
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
  let serve: ServeProcess;
  let worker: ChildProcess | null = null;
  let workerOutput = "";

  const gql = (query: string, variables: Record<string, unknown> = {}) =>
    servedGql(serve.url).gql(query, variables);

  beforeAll(async () => {
    const adminUrl = adminUrlOf(backend);
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${database}`));
    bouncer = await startPgBouncer(adminUrl, database);
    const env = {
      DATABASE_URL: bouncer.url,
      MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated", maxConcurrency: 8 } }),
      MEMICL_IN_PROCESS_WORKERS: "4",
      MEMICL_DB_POOL_SIZE: "4",
      MEMICL_QUEUE_POOL_SIZE: "2",
    };
    // The migrations, the queue's setup and the requests of serve, all through the pooler.
    serve = await startServe(env);
    worker = spawn(process.execPath, [...MEMICL_COMMAND, "worker", "--concurrency", "4"], {
      env: { ...process.env, LOG_LEVEL: "warn", ...env },
    });
    worker.stdout?.on("data", (chunk) => (workerOutput += chunk));
    worker.stderr?.on("data", (chunk) => (workerOutput += chunk));
  }, 60_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker!.once("exit", resolve));
      worker.kill("SIGTERM");
      await exited;
    }
    await serve?.stop();
    await bouncer?.stop();
    await dropDatabase(adminUrlOf(backend), database);
  });

  it("runs an experiment to the end with exact counts, its report and metric rows", async () => {
    const api = servedGql(serve.url) as TestServer;
    const sampleId = await classificationSample(api, "pooled", {
      rows: 120,
      instances: 40,
      demonstrations: 10,
      shots: [0, 10],
    });
    // The worker process registers through the pooler too.
    const deadline = Date.now() + 30_000;
    while (((await gql("{ workers { role } }")).data?.workers ?? []).every((w: any) => w.role !== "worker")) {
      if (Date.now() > deadline) throw new Error(`the worker did not register: ${workerOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const started = await gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id expectedCount } } }`,
      {
        input: { name: "pooled", sampleIds: [sampleId], provider: "sim", model: "m", performanceRepeats: 2 },
      },
    );
    expect(started.errors).toBeUndefined();
    const { experiment, runs } = started.data!.startExperiment;
    const expected = runs.reduce((total: number, run: any) => total + run.expectedCount, 0);
    let progress: any;
    for (;;) {
      progress = (
        await gql(`query($id: ID!) { experiment(id: $id) { progress { activeRuns done failed } } }`, {
          id: experiment.id,
        })
      ).data!.experiment.progress;
      if (progress.activeRuns === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(progress).toEqual({ activeRuns: 0, done: expected, failed: 0 });
    // Each item was called once: as many stored completions as expected, none twice.
    const counts = await withClient(bouncer.url, async (client) => {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n, count(DISTINCT (c.run_id, c.sampled_instance_id, c.repeat))::int AS distinct_items
         FROM completion c JOIN run r ON r.id = c.run_id WHERE r.experiment_id = $1 AND c.status = 'SUCCEEDED'`,
        [experiment.id],
      );
      return rows[0];
    });
    expect(counts).toEqual({ n: expected, distinct_items: expected });
    const report = await gql(
      `query($id: ID!) { studyReport(experimentId: $id, fresh: true) { memorization { sampleId setting shots n unjudged } } }`,
      { id: experiment.id },
    );
    expect(report.errors).toBeUndefined();
    const rows = report.data!.studyReport.memorization;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatchObject({ n: 40, unjudged: 0 });
    const metrics = await gql(
      `query($id: ID!) { metrics(filter: { experimentId: $id, names: ["memorization.rate"] }, first: 100) { edges { node { value } } } }`,
      { id: experiment.id },
    );
    expect(metrics.errors).toBeUndefined();
    expect(metrics.data!.metrics.edges.length).toBeGreaterThan(0);
    // No advisory lock is left behind on a server connection: a session lock taken through the pooler on one
    // server connection and released on another would stay held here. A transaction's lock (the reconciler's
    // pass, the metric rows' refresh) can be seen for a moment too, since pg_locks and pg_stat_activity are not
    // read at one instant: a lock left behind is one seen in every look, a few looks apart.
    const leftLocks = await withClient(adminUrlOf(backend), async (client) => {
      let fewest = Number.POSITIVE_INFINITY;
      for (let look = 0; look < 10 && fewest > 0; look++) {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
           WHERE l.locktype = 'advisory' AND l.granted AND d.datname = $1
             AND l.pid NOT IN (SELECT pid FROM pg_stat_activity WHERE state <> 'idle')`,
          [database],
        );
        fewest = Math.min(fewest, rows[0].n);
        if (fewest > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return fewest;
    });
    expect(leftLocks).toBe(0);
    // Nothing of memicl's own failed on the way (a session feature through the pooler would show here).
    expect(serve.output()).not.toMatch(/"level":(50|60)/);
    expect(workerOutput).not.toMatch(/"level":(50|60)/);
  }, 120_000);
});
