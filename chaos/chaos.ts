// `npm run chaos -- [--short] [--backend embedded|postgres|both] [--pg URL] [--backlog N] [--outages N]`: a run
// under provider faults (429, 500, hangs, garbage, NUL, a 1 MB answer of one word) while `memicl serve` and
// `memicl worker` processes are killed with SIGKILL and restarted at random moments, the database goes away
// (PostgreSQL: connections refused for 5 s; embedded: its postmaster SIGKILLed), and a backlog of waiting items
// for a provider no worker can call sits in the queue. Asserts that the run ends on its own with exact counts,
// nothing stored twice, and no key anywhere.
import "reflect-metadata";
import { ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { freePort } from "../src/common/free-port";
import { stopCluster } from "../src/db/embedded";
import { createLogger } from "../src/logging/logger";
import { Behaviour, FakeOpenAiServer } from "../test/support/fake-openai-server";

const BIN = path.resolve(__dirname, "../../bin/memicl.js");

interface Options {
  completions: number;
  kills: number;
  /** Database outages during the run, after the kills. */
  outages: number;
  /** Items of another run, for a provider no worker can call, waiting in the queue throughout. */
  backlog: number;
  backend: "embedded" | "postgres";
  pg: string;
  /** MEMICL_LEASE_SECONDS for the memicl processes (unset: the default). */
  lease: string | undefined;
}

interface KillRecord {
  target: string;
  doneAtKill: number;
  recoverySeconds: number | null;
}

/** Faults, each with its share of calls: the rest are answered. */
const FAULTS: [number, Behaviour][] = [
  [0.08, { kind: "status", status: 429, retryAfterSeconds: 1 }],
  [0.08, { kind: "status", status: 500 }],
  [0.03, { kind: "status", status: 500, echoAuthorization: true }],
  [0.04, { kind: "hang" }],
  [0.08, { kind: "malformed" }],
];

class ChaosProvider extends FakeOpenAiServer {
  private random = 1;

  constructor() {
    super();
    this.fallback = { kind: "answer", delayMs: 20 };
  }

  /** A deterministic stream of faults (xorshift), so two runs of the script meet the same mix. */
  pick(): Behaviour {
    this.random ^= this.random << 13;
    this.random ^= this.random >>> 17;
    this.random ^= this.random << 5;
    let draw = ((this.random >>> 0) % 10_000) / 10_000;
    for (const [share, behaviour] of FAULTS) {
      if (draw < share) return behaviour;
      draw -= share;
    }
    // 5% of answers carry a NUL character, which PostgreSQL text cannot hold; 0.5% are a megabyte of one word
    // (an endpoint that ignores max_tokens), which the judge must not choke on.
    if (draw < 0.05) return { kind: "answer", delayMs: 20, content: "nul\u0000answer" };
    if (draw < 0.055) return { kind: "answer", delayMs: 20, content: "x".repeat(1_000_000) };
    return this.fallback;
  }
}

function spawnMemicl(args: string[], env: NodeJS.ProcessEnv, log: fs.WriteStream): ChildProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  return child;
}

async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      out += chunk;
    });
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`memicl ${args[0]}: ${out}`))));
  });
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error("memicl serve exited while starting");
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not yet
    }
    await sleep(100);
  }
  throw new Error("memicl serve did not start");
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (!alive(child)) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  return exited;
}

/** Calls in flight at once when both processes run: `memicl serve` (32) and the worker (16). */
const SLOTS = 48;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function chaos(options: Options): Promise<Record<string, string | number>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-chaos-"));
  fs.chmodSync(dir, 0o755);
  const key = `sk-chaos-${randomBytes(12).toString("hex")}`;
  const provider = new ChaosProvider();
  const providerUrl = await provider.start();
  // Every request draws its behaviour from the fault mix.
  provider.choose = () => provider.pick();

  const providersFile = path.join(dir, "providers.json");
  fs.writeFileSync(
    providersFile,
    JSON.stringify({
      providers: {
        chaos: {
          type: "openai",
          baseUrl: providerUrl,
          apiKeyEnv: "CHAOS_API_KEY",
          maxConcurrency: 32,
          timeoutSeconds: 2,
          maxAttempts: 10,
          circuitBreakerFailures: 1000,
        },
        // The same endpoint's Batch API: a run beside the online one goes through batches (some requests of
        // which fail and go again, the last ones online) while the processes are killed.
        batches: {
          type: "openai",
          baseUrl: providerUrl,
          apiKeyEnv: "CHAOS_API_KEY",
          maxConcurrency: 8,
          timeoutSeconds: 2,
          maxAttempts: 10,
          circuitBreakerFailures: 1000,
          batch: { maxRequestsPerFile: 40, pollMinSeconds: 0.2, pollMaxSeconds: 1, attempts: 2 },
        },
        // Its key variable is never set: no worker can call it, so its run's items wait in the queue throughout.
        nobody: { type: "openai", baseUrl: providerUrl, apiKeyEnv: "CHAOS_UNSET_KEY" },
      },
    }),
  );
  /** The run's database: the PostgreSQL server's, or the embedded cluster's in the run's data folder. */
  const databaseUrlOf = () => {
    if (env.DATABASE_URL) return env.DATABASE_URL;
    const cluster = JSON.parse(fs.readFileSync(path.join(dir, "data", "cluster.json"), "utf8"));
    const password = fs.readFileSync(path.join(dir, "data", "password"), "utf8").trim();
    return `postgres://memicl:${encodeURIComponent(password)}@127.0.0.1:${cluster.port}/memicl`;
  };
  let databaseName: string | null = null;
  const env: NodeJS.ProcessEnv = {
    MEMICL_PROVIDERS_FILE: providersFile,
    CHAOS_API_KEY: key,
    LOG_LEVEL: "info",
    ...(options.lease ? { MEMICL_LEASE_SECONDS: options.lease } : {}),
    MEMICL_DATA_DIR: path.join(dir, "data"),
    DATABASE_URL: "",
  };
  if (options.backend === "postgres") {
    databaseName = `memicl_chaos_${process.pid}`;
    const admin = new Client({ connectionString: options.pg });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    const url = new URL(options.pg);
    url.pathname = `/${databaseName}`;
    env.DATABASE_URL = url.toString();
  }
  const logPath = path.join(dir, "memicl.log");
  const log = fs.createWriteStream(logPath);
  const processes: ChildProcess[] = [];
  try {
    const rows = Array.from({ length: options.completions }, (_, i) =>
      JSON.stringify({
        text: `chaos row ${i} holds a sentence of about twelve words for the model ${i % 7}`,
        label: `l${i % 4}`,
      }),
    );
    const data = path.join(dir, "rows.jsonl");
    fs.writeFileSync(data, `${rows.join("\n")}\n`);
    await cli(["import", data, "--name", "chaos"], env);
    const sampled = await cli(
      [
        "sample",
        "--dataset",
        "chaos",
        "--instances",
        String(options.completions),
        "--demonstrations",
        "0",
        "--shots",
        "0",
      ],
      env,
    );
    const sampleId = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/.exec(sampled)?.[1];
    if (!sampleId) throw new Error(`no sample id in: ${sampled}`);
    let backlogSampleId: string | null = null;
    if (options.backlog > 0) {
      const backlogRows = Array.from({ length: options.backlog }, (_, i) =>
        JSON.stringify({
          text: `backlog row ${i} waits for a provider nobody can call ${i % 5}`,
          label: `b${i % 2}`,
        }),
      );
      const backlogData = path.join(dir, "backlog.jsonl");
      fs.writeFileSync(backlogData, `${backlogRows.join("\n")}\n`);
      await cli(["import", backlogData, "--name", "backlog"], env);
      const drawn = await cli(
        [
          "sample",
          "--dataset",
          "backlog",
          "--instances",
          String(options.backlog),
          "--demonstrations",
          "0",
          "--shots",
          "0",
        ],
        env,
      );
      backlogSampleId = /sample ([0-9a-f-]{36})/.exec(drawn)?.[1] ?? null;
      if (!backlogSampleId) throw new Error(`no backlog sample id in: ${drawn}`);
    }

    // A port the OS hands out now, kept for the restarts. A random one could be held by an outgoing connection.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const startServe = async () => {
      const child = spawnMemicl(["serve"], { ...env, PORT: String(port) }, log);
      processes.push(child);
      await waitForHealth(url, child);
      return child;
    };
    const startWorker = () => {
      const child = spawnMemicl(["worker", "--concurrency", "16"], env, log);
      processes.push(child);
      return child;
    };
    let serve = await startServe();
    let worker = startWorker();
    const gql = async (query: string, variables: Record<string, unknown> = {}) => {
      const response = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data?: any; errors?: unknown[] };
    };
    if (backlogSampleId) {
      // A run for a provider no process can call is refused at once, unless a live worker elsewhere has its key:
      // such a worker's row (with a fresh beat) lets the backlog be queued; it is gone again right after, so the
      // backlog waits with no worker able to call it, as before.
      const setup = new Client({ connectionString: databaseUrlOf() });
      await setup.connect();
      const [{ id: elsewhere }] = (
        await setup.query(
          `INSERT INTO worker (id, host, pid, role, concurrency, providers, code_version)
           VALUES (gen_random_uuid(), 'chaos-elsewhere', 1, 'worker', 1, ARRAY['nobody'], 'chaos') RETURNING id`,
        )
      ).rows;
      const backlog = await gql(
        `mutation($input: StartRunInput!) { startRun(input: $input) { run { id expectedCount } } }`,
        {
          input: {
            sampleId: backlogSampleId,
            kind: "MEMORIZATION",
            setting: "ONLY_SEGMENT_PAIRS",
            shots: 0,
            provider: "nobody",
            model: "nobody-model",
          },
        },
      );
      await setup.query("DELETE FROM worker WHERE id = $1", [elsewhere]);
      await setup.end();
      if (!backlog.data?.startRun)
        throw new Error(`the backlog run did not start: ${JSON.stringify(backlog)}`);
    }
    const started = await gql(
      `mutation($input: StartRunInput!) { startRun(input: $input) { run { id expectedCount } } }`,
      {
        input: {
          sampleId,
          kind: "MEMORIZATION",
          setting: "ONLY_SEGMENT_PAIRS",
          shots: 0,
          provider: "chaos",
          model: "chaos-model",
        },
      },
    );
    const runId: string = started.data?.startRun.run.id;
    if (!runId) throw new Error(`startRun failed: ${JSON.stringify(started)}`);
    // The batch run: every request of a batch takes a moment (so kills land while batches are out), and about one
    // in twelve fails in its batch (a 500 line in the error file), to be sent again or called online.
    provider.batches.behaviour.itemMs = 15;
    provider.batches.behaviour.fails = (customId) => (Number(customId) * 2654435761) % 12 === 0;
    const batchRun = await gql(
      `mutation($input: StartRunInput!) { startRun(input: $input) { run { id expectedCount batch } } }`,
      {
        input: {
          sampleId,
          kind: "MEMORIZATION",
          setting: "FULL_INFORMATION",
          shots: 0,
          provider: "batches",
          model: "chaos-batch-model",
        },
      },
    );
    const batchRunId: string = batchRun.data?.startRun.run.id;
    if (!batchRunId || !batchRun.data.startRun.run.batch)
      throw new Error(`the batch run did not start: ${JSON.stringify(batchRun)}`);
    const stateOf = async (id: string) => {
      for (;;) {
        try {
          const response = await gql(
            `query($id: ID!) { run(id: $id) { status doneCount failedCount expectedCount lastError waitingReason } }`,
            { id },
          );
          if (response.data?.run) return response.data.run;
        } catch {
          // the server is down for a moment
        }
        await sleep(200);
      }
    };
    const state = () => stateOf(runId);

    const kills: KillRecord[] = [];
    const outages: { doneAtOutage: number; seconds: number }[] = [];
    /** The database goes away: connections refused for 5 s (PostgreSQL), or its server SIGKILLed (embedded). */
    const takeDatabaseAway = async () => {
      if (databaseName) {
        const admin = new Client({ connectionString: options.pg });
        await admin.connect();
        await admin.query(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS false`);
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
          [databaseName],
        );
        await sleep(5_000);
        await admin.query(`ALTER DATABASE ${databaseName} ALLOW_CONNECTIONS true`);
        await admin.end();
      } else {
        const cluster = JSON.parse(fs.readFileSync(path.join(dir, "data", "cluster.json"), "utf8"));
        const pid = Number(
          fs.readFileSync(path.join(cluster.clusterDir, "postmaster.pid"), "utf8").split("\n")[0],
        );
        process.kill(pid, "SIGKILL");
      }
    };
    const startedAt = Date.now();
    // Slot use: open requests at the provider, sampled every 100 ms, over the stretches with no kill in
    // the last 10 s (a dead process's slots are gone until it is back) and while work was still waiting.
    const busy: number[] = [];
    const occupied: number[] = [];
    let lastKill = 0;
    let waitingWork = true;
    const sampler = setInterval(() => {
      if (Date.now() - lastKill <= 10_000 || !waitingWork) return;
      busy.push(provider.inFlight);
      // Occupied slots as the workers last reported them (each beat: every third of a lease).
      void gql("{ workers { inFlight concurrency } }")
        .then((response) => {
          const workers: { inFlight: number; concurrency: number }[] = response.data?.workers ?? [];
          const slots = workers.reduce((sum, worker) => sum + worker.concurrency, 0);
          if (slots > 0) occupied.push(workers.reduce((sum, worker) => sum + worker.inFlight, 0) / slots);
        })
        .catch(() => {});
    }, 250);
    const deadline = startedAt + (options.completions <= 500 ? 5 : 15) * 60_000;
    let current = await state();
    while (!["SUCCEEDED", "FAILED", "CANCELLED"].includes(current.status)) {
      if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(current)}`);
      const progress = current.doneCount + current.failedCount;
      // Work is waiting while more items remain than the slots of both processes.
      waitingWork = current.expectedCount - progress > SLOTS;
      if (
        kills.length < options.kills &&
        progress > ((kills.length + 1) * current.expectedCount) / (options.kills + 2)
      ) {
        const target = kills.length % 2 === 0 ? "serve" : "worker";
        const victim = target === "serve" ? serve : worker;
        await stopChild(victim, "SIGKILL");
        lastKill = Date.now();
        await sleep(500 + Math.random() * 1500);
        const record: KillRecord = { target, doneAtKill: progress, recoverySeconds: null };
        kills.push(record);
        const restartedAt = Date.now();
        if (target === "serve") serve = await startServe();
        else worker = startWorker();
        // Recovery: how long after the restart progress resumed beyond what it was at the kill.
        void (async () => {
          for (;;) {
            const now = await state();
            if (now.doneCount + now.failedCount > record.doneAtKill + 32 || now.status !== "RUNNING") {
              record.recoverySeconds = (Date.now() - restartedAt) / 1000;
              return;
            }
            await sleep(250);
          }
        })();
      }
      if (
        kills.length >= options.kills &&
        outages.length < options.outages &&
        progress >
          ((options.kills + 1 + outages.length) * current.expectedCount) /
            (options.kills + options.outages + 2)
      ) {
        const at = Date.now();
        await takeDatabaseAway();
        lastKill = Date.now();
        outages.push({ doneAtOutage: progress, seconds: (Date.now() - at) / 1000 });
      }
      await sleep(300);
      current = await state();
    }
    // The batch run ends on its own too (its last batches may still be out when the online run is done).
    let batchState = await stateOf(batchRunId);
    while (!["SUCCEEDED", "FAILED", "CANCELLED"].includes(batchState.status)) {
      if (Date.now() > deadline)
        throw new Error(`the batch run did not finish: ${JSON.stringify(batchState)}`);
      await sleep(300);
      batchState = await stateOf(batchRunId);
    }
    const seconds = (Date.now() - startedAt) / 1000;
    clearInterval(sampler);
    const mean = (values: number[]) =>
      values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : Number.NaN;
    const slotUse = mean(busy) / SLOTS;
    const occupancy = mean(occupied);
    await sleep(1000);

    // What the database holds.
    const db = new Client({ connectionString: databaseUrlOf() });
    await db.connect();
    const [counts] = (
      await db.query(
        `SELECT count(*)::int AS rows,
                count(*) FILTER (WHERE status = 'SUCCEEDED')::int AS succeeded,
                count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
                count(DISTINCT (sampled_instance_id, repeat))::int AS distinct_items,
                count(*) FILTER (WHERE output LIKE '%' || $2 || '%' OR error LIKE '%' || $2 || '%')::int AS with_key
         FROM completion WHERE run_id = $1`,
        [runId, key],
      )
    ).rows;
    const [run] = (
      await db.query(
        "SELECT status, expected_count, done_count, failed_count, coalesce(last_error, '') AS last_error FROM run WHERE id = $1",
        [runId],
      )
    ).rows;
    const [batchCounts] = (
      await db.query(
        `SELECT r.status, r.expected_count, r.done_count, r.failed_count,
                (SELECT count(*)::int FROM completion c WHERE c.run_id = r.id) AS rows,
                (SELECT count(*)::int FROM completion c WHERE c.run_id = r.id AND c.status = 'SUCCEEDED') AS succeeded,
                (SELECT count(*)::int FROM completion c WHERE c.run_id = r.id AND c.status = 'FAILED') AS failed_rows,
                (SELECT count(DISTINCT (sampled_instance_id, repeat))::int FROM completion c WHERE c.run_id = r.id) AS distinct_items,
                (SELECT count(*)::int FROM provider_batch b WHERE b.run_id = r.id) AS batches,
                (SELECT count(*)::int FROM provider_batch b WHERE b.run_id = r.id AND b.state <> 'COLLECTED') AS open_batches
         FROM run r WHERE r.id = $1`,
        [batchRunId],
      )
    ).rows;
    await db.end();
    await Promise.all(processes.filter(alive).map((child) => stopChild(child, "SIGTERM")));
    log.end();
    const logs = fs.readFileSync(logPath, "utf8");
    const served = JSON.stringify(current);

    const onlineAnswered = provider.answeredByModel.get("chaos-model") ?? 0;
    const paidTwice = onlineAnswered - counts.succeeded;
    // A request goes into at most `attempts` (2) batches; a third submission would be one sent twice.
    const mostSubmissions = provider.batches.mostSubmissions;
    const backlogRequests = provider.requests.filter((request) => request.model === "nobody-model").length;
    const checks: [string, boolean][] = [
      ["the run reached an end without a manual step", ["SUCCEEDED", "FAILED"].includes(run.status)],
      ["done + failed = expected", run.done_count + run.failed_count === run.expected_count],
      ["counters match the rows", run.done_count === counts.succeeded && run.failed_count === counts.failed],
      [
        "one row per item, none stored twice",
        counts.rows === run.expected_count && counts.distinct_items === counts.rows,
      ],
      ["every stored success was a successful call", counts.succeeded <= onlineAnswered],
      [
        `the batch run ended on its own in ${batchCounts.batches} batches, with exact counts`,
        ["SUCCEEDED", "FAILED"].includes(batchCounts.status) &&
          batchCounts.done_count + batchCounts.failed_count === batchCounts.expected_count &&
          batchCounts.done_count === batchCounts.succeeded &&
          batchCounts.failed_count === batchCounts.failed_rows &&
          batchCounts.open_batches === 0,
      ],
      [
        "the batch run has one row per item, none stored twice",
        batchCounts.rows === batchCounts.expected_count && batchCounts.distinct_items === batchCounts.rows,
      ],
      [
        `no request submitted in more batches than its attempts (most: ${mostSubmissions} of 2)`,
        mostSubmissions <= 2 && provider.batches.distinctSubmitted === batchCounts.expected_count,
      ],
      [
        "calls paid twice are only those in flight at a kill or an outage",
        paidTwice >= 0 && paidTwice <= (kills.length + outages.length) * SLOTS,
      ],
      [
        `the database went away ${outages.length} time(s) and the run ended anyway`,
        outages.length === options.outages,
      ],
      ["no call for the backlog no worker can call", backlogRequests === 0],
      ["no key in the database", counts.with_key === 0 && !run.last_error.includes(key)],
      ["no key in the logs", !logs.includes(key)],
      ["no key in responses", !served.includes(key)],
      [
        `slots occupied while work waits (workers' beats): ${(occupancy * 100).toFixed(0)}%; calls open at the provider: ${(slotUse * 100).toFixed(0)}% of ${SLOTS}`,
        options.kills > 0 || !(occupancy < 0.8),
      ],
      [
        "every kill was recovered from",
        kills.every((kill) => kill.recoverySeconds !== null || run.status !== "RUNNING"),
      ],
    ];
    const failed = checks.filter(([, ok]) => !ok);
    for (const [name, ok] of checks) process.stdout.write(`  ${ok ? "ok  " : "FAIL"} ${name}\n`);
    if (failed.length > 0) {
      process.stdout.write(`  logs kept in ${logPath}\n`);
      throw new Error(`chaos on ${options.backend}: ${failed.map(([name]) => name).join("; ")}`);
    }
    const recoveries = kills
      .map((kill) => `${kill.target} ${kill.recoverySeconds?.toFixed(1) ?? "-"} s`)
      .join(", ");
    return {
      backend: options.backend,
      completions: run.expected_count,
      calls: provider.requests.length,
      "successful calls": provider.answered,
      "stored successes": counts.succeeded,
      failed: counts.failed,
      "calls paid twice": paidTwice,
      "batch run": `${batchCounts.done_count}/${batchCounts.expected_count} in ${batchCounts.batches} batches`,
      kills: kills.length,
      "database outages": outages.length,
      backlog: options.backlog,
      "slots occupied / calls open while work waits": `${(occupancy * 100).toFixed(0)}% / ${(slotUse * 100).toFixed(0)}%`,
      "progress resumed after restart": recoveries,
      seconds: Math.round(seconds),
    };
  } finally {
    await Promise.all(processes.filter(alive).map((child) => stopChild(child, "SIGKILL")));
    await provider.stop();
    if (options.backend === "embedded") await stopCluster(path.join(dir, "data"), createLogger("silent"));
    if (databaseName) {
      const admin = new Client({ connectionString: options.pg });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
    if (!process.exitCode) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const short = args.includes("--short");
  const backend = option("--backend", "both");
  const pg = option("--pg", process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test");
  const backends =
    backend === "both" ? (["embedded", "postgres"] as const) : [backend as "embedded" | "postgres"];
  const results = [];
  for (const which of backends) {
    process.stdout.write(`chaos on ${which}:\n`);
    results.push(
      await chaos({
        backend: which,
        pg,
        completions: Number(option("--completions", short ? "300" : "2000")),
        kills: Number(option("--kills", short ? "2" : "6")),
        outages: Number(option("--outages", "1")),
        backlog: Number(option("--backlog", short ? "1000" : "25000")),
        lease: args.includes("--lease") ? option("--lease", "30") : undefined,
      }),
    );
  }
  const columns = Object.keys(results[0]);
  process.stdout.write(`\n| ${columns.join(" | ")} |\n| ${columns.map(() => "---").join(" | ")} |\n`);
  for (const result of results)
    process.stdout.write(`| ${columns.map((column) => String(result[column])).join(" | ")} |\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
