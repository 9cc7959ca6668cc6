import { ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { freePort } from "../src/common/free-port";
import { nodeFlagsOf } from "./node-flags";

// Compiled to dist/bench: the checkout is two folders up (test/support/cli.ts resolves from the sources).
// BENCH_MEMICL_BIN runs another build's memicl under this benchmark (an A/B against an earlier commit built in a
// worktree: `BENCH_MEMICL_BIN=../old/bin/memicl.js`), the same measurement for both.
const BIN = path.resolve(process.env.BENCH_MEMICL_BIN ?? path.resolve(__dirname, "../../bin/memicl.js"));

/** Node's flags as the `memicl` command's first line gives them: an A/B against another build runs each with its own. */
const MEMICL_NODE_FLAGS = nodeFlagsOf(BIN);

/** Processes as a user runs them: a stand-in provider, `memicl serve`, `memicl worker` (for the benchmarks). */

export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

function child(command: string[], env: Record<string, string>): Child {
  // Node options for profiles (say, "--cpu-prof --cpu-prof-dir=/tmp/prof"): BENCH_NODE_ARGS for memicl's
  // processes, BENCH_STAND_IN_ARGS for the stand-in provider.
  const variable = command[0] === BIN ? "BENCH_NODE_ARGS" : "BENCH_STAND_IN_ARGS";
  const nodeArgs = [
    ...(command[0] === BIN ? MEMICL_NODE_FLAGS : []),
    ...(process.env[variable] ?? "").split(" ").filter(Boolean),
  ];
  const proc = spawn(process.execPath, [...nodeArgs, ...command], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // BENCH_LOG_DIR keeps each process's whole output in a file of its own (its command and pid in the name), for an
  // investigation: a warning of one worker among twenty.
  const logDir = process.env.BENCH_LOG_DIR;
  const log = logDir
    ? fs.createWriteStream(
        path.join(logDir, `${command[0] === BIN ? command[1] : path.basename(command[0])}-${proc.pid}.log`),
      )
    : null;
  proc.stdout?.on("data", (chunk) => {
    output = (output + chunk).slice(-4_000);
    log?.write(chunk);
  });
  proc.stderr?.on("data", (chunk) => {
    output = (output + chunk).slice(-4_000);
    log?.write(chunk);
  });
  proc.on("exit", (code, signal) => {
    if ((code && code !== 0) || (signal && signal !== "SIGTERM"))
      process.stderr.write(`${command.join(" ")} exited with ${code ?? signal}:\n${output}\n`);
  });
  return {
    process: proc,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((resolve) => proc.once("exit", resolve));
      proc.kill("SIGTERM");
      await exited;
    },
  };
}

/** Runs a `memicl` command to its end; fails with its standard error when it does not exit 0. */
export function memiclCommand(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...MEMICL_NODE_FLAGS, BIN, ...args], {
      env: { ...process.env, ...env, LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    proc.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    proc.on("error", reject);
    proc.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`memicl ${args[0]}: ${stderr}`))));
  });
}

/** The stand-in OpenAI-compatible server in its own process; resolves with its URL. */
export async function startStandIn(
  delayMs: number,
  requestsPerMinute?: number,
  recordTo?: string,
  extra: string[] = [],
): Promise<Child & { url: string }> {
  const args = [path.join(__dirname, "stand-in-server.js"), "--delay", String(delayMs), ...extra];
  if (requestsPerMinute) args.push("--rpm", String(requestsPerMinute));
  if (recordTo) args.push("--record", recordTo);
  const standIn = child(args, {});
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = "";
    standIn.process.stdout!.on("data", (chunk) => {
      buffer += chunk;
      const line = buffer.split("\n")[0];
      if (buffer.includes("\n")) resolve(line.trim());
    });
    standIn.process.once("exit", () => reject(new Error("the stand-in server exited")));
  });
  return { ...standIn, url };
}

export interface Memicl {
  url: string;
  /** The `memicl serve` process (its CPU time and peak memory are read from /proc). */
  servePid: number;
  gql(query: string, variables?: Record<string, unknown>): Promise<any>;
  /**
   * A read as `memicl serve` sees a dashboard's on another machine: the whole answer received (over a kept-alive
   * connection) and checked for errors, not parsed; resolves to its size in bytes. The benchmarks' dashboards
   * share the two cores with serve, PostgreSQL and the stand-in, and a parsed 16 KB report costs the reading
   * process about as much CPU as serving it costs serve (docs/BENCHMARKS.md).
   */
  read(query: string, variables?: Record<string, unknown>): Promise<number>;
  stop(): Promise<void>;
}

const readAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function readOnce(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  retry = true,
): Promise<number> {
  const body = JSON.stringify({ query, variables });
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent: readAgent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const answer = Buffer.concat(chunks);
          if (response.statusCode !== 200 || answer.indexOf('"errors":') >= 0)
            reject(new Error(`read answered ${response.statusCode}: ${answer.subarray(0, 500).toString()}`));
          else resolve(answer.length);
        });
      },
    );
    // A kept-alive connection the server closed as idle just as this read was sent on it: sent again on a new
    // one (as Node's documentation of `reusedSocket` advises); nothing reached the server.
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (retry && request.reusedSocket && error.code === "ECONNRESET")
        readOnce(url, query, variables, false).then(resolve, reject);
      else reject(error);
    });
    request.end(body);
  });
}

/** A database for one measurement: a fresh one on the PostgreSQL server, or a fresh embedded data folder. */
export async function benchDatabase(
  backend: "postgres" | "embedded",
  adminUrl: string,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (backend === "embedded") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-bench-"));
    fs.chmodSync(dir, 0o755);
    return {
      env: { MEMICL_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" },
      async drop() {
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `memicl_bench_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    async drop() {
      const again = new Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

/**
 * `memicl serve` in its own process (with `inProcessWorkers` calls at once in it), plus `workers` separate
 * `memicl worker` processes of `workerConcurrency` each; resolves when GraphQL answers.
 */
export async function startMemicl(options: {
  env: Record<string, string>;
  providersFile: string;
  inProcessWorkers: number;
  workers?: number;
  workerConcurrency?: number;
}): Promise<Memicl> {
  const port = await freePort();
  const env = {
    ...options.env,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    PORT: String(port),
    MEMICL_PROVIDERS_FILE: options.providersFile,
    MEMICL_IN_PROCESS_WORKERS: String(options.inProcessWorkers),
  };
  const serve = child([BIN, "serve"], env);
  const url = `http://127.0.0.1:${port}/graphql`;
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await gql("{ version { codeVersion } }");
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const workers = Array.from({ length: options.workers ?? 0 }, () =>
    child([BIN, "worker", "--concurrency", String(options.workerConcurrency ?? 32)], env),
  );
  // Measured from the moment every worker process is working, as a user who starts them first would.
  while (options.workers) {
    const { workers: live } = await gql("{ workers { role } }");
    if (live.filter((worker: { role: string }) => worker.role === "worker").length >= options.workers) break;
    if (Date.now() > deadline) throw new Error("the worker processes did not register");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    servePid: serve.process.pid!,
    gql,
    read: (query, variables = {}) => readOnce(url, query, variables),
    async stop() {
      for (const worker of workers) await worker.stop();
      await serve.stop();
    },
  };
}

/** Polls a run (as a script would, every 50 ms) until it has finished; returns its counts. */
export async function waitForRun(memicl: Memicl, runId: string): Promise<{ done: number; failed: number }> {
  for (;;) {
    const { run } = await memicl.gql(`query($id: ID!) { run(id: $id) { status doneCount failedCount } }`, {
      id: runId,
    });
    if (!["QUEUED", "RUNNING"].includes(run.status)) return { done: run.doneCount, failed: run.failedCount };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls an experiment (every 250 ms, as a dashboard might) until every run has finished; returns its counts. */
export async function waitForExperiment(
  memicl: Memicl,
  experimentId: string,
  everyMs = 250,
  /** Told each progress read: the calls done by then (`performance.now()` when the answer came). */
  onProgress: (atMs: number, done: number) => void = () => {},
): Promise<{ done: number; failed: number }> {
  for (;;) {
    const { experiment } = await memicl.gql(
      `query($id: ID!) { experiment(id: $id) { progress { status activeRuns done failed } } }`,
      { id: experimentId },
    );
    onProgress(performance.now(), experiment.progress.done);
    if (experiment.progress.activeRuns === 0) return experiment.progress;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * The values of one metric on `memicl serve`'s GET /metrics, summed over its labels (0 when it has none yet): a
 * delta over a run is what the server did in it.
 */
export async function serveMetric(memicl: Memicl, name: string): Promise<number> {
  const response = await fetch(new URL("/metrics", memicl.url));
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  let total = 0;
  for (const line of (await response.text()).split("\n")) {
    const [series, value] = line.split(" ");
    if (series === name || series?.startsWith(`${name}{`)) total += Number(value);
  }
  return total;
}

/** A process's CPU seconds so far (user + system) and its peak resident memory in MB, from /proc (Linux). */
export function processUsage(pid: number): { cpuSeconds: number; peakRssMb: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces, in parentheses): utime and stime are 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
  return { cpuSeconds: ticks / 100, peakRssMb: hwm ? Number(hwm[1]) / 1024 : Number.NaN };
}

/**
 * CPU seconds so far of every PostgreSQL process on the machine (the server's backends and their finished
 * children, counted in the postmaster's), from /proc (Linux): a delta over a run is what the database spent on it.
 */
export function postgresCpuSeconds(): number {
  let ticks = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // the process ended while the list was read
    }
  }
  return ticks / 100;
}

/** CPU seconds every core of the machine has spent busy so far (every process, the kernel's too), from /proc/stat. */
export function machineBusySeconds(): number {
  const { user, nice, system, irq, softirq, steal } = machineTicks();
  return (user + nice + system + irq + softirq + steal) / 100;
}

/**
 * CPU seconds the machine's virtual cores have waited for the host so far (steal, from /proc/stat): time a run
 * lost to other tenants of the host, which no process of the benchmark spent.
 */
export function machineStealSeconds(): number {
  return machineTicks().steal / 100;
}

function machineTicks() {
  const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return { user, nice, system, irq, softirq, steal: steal || 0 };
}
