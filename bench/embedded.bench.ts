import { ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../src/common/free-port";
import { writeCsv } from "./import.bench";

const BIN = path.resolve(__dirname, "../../bin/memicl.js");

/** Proportional set size (shared pages split between sharers) of a process, in MB; 0 when it is gone. */
function pssMb(pid: number): number {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The embedded server's processes: the postmaster named in postmaster.pid and its children. */
function postgresPids(clusterDir: string): number[] {
  let postmaster: number;
  try {
    postmaster = Number(fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return [];
  }
  const pids = [postmaster];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === postmaster) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `npm run bench -- embedded [--rows 200000] [--readers 50] [--read-seconds 20]`: the zero-set-up default
 * as a user runs it (`memicl serve` and CLI commands in their own processes on one data folder): /health and
 * memory during a large import, the import's rate, parallel starts with one idempotency key, and concurrent
 * readers while a run is going.
 */
export async function benchEmbedded(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const rows = Number(option("--rows", "200000"));
  const readers = Number(option("--readers", "50"));
  const readSeconds = Number(option("--read-seconds", "20"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-bench-embedded-"));
  fs.chmodSync(dir, 0o755);
  const providers = path.join(dir, "providers.json");
  fs.writeFileSync(
    providers,
    JSON.stringify({
      providers: { slow: { type: "simulated", maxConcurrency: 32, simulation: { latencyMs: 50 } } },
    }),
  );
  const env = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: "",
    MEMICL_DATA_DIR: path.join(dir, "data"),
    MEMICL_PROVIDERS_FILE: providers,
    LOG_LEVEL: "warn",
  };
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const children: ChildProcess[] = [];
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { message: string }[] };
  };
  const results: [string, string][] = [];
  try {
    const serve = spawn(process.execPath, [BIN, "serve"], {
      env: { ...env, PORT: String(port) },
      stdio: "ignore",
    });
    children.push(serve);
    for (let started = Date.now(); ; ) {
      try {
        if ((await fetch(`${url}/health`)).ok) break;
      } catch {
        // starting
      }
      if (Date.now() - started > 60_000) throw new Error("memicl serve did not start");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // 1. A large import from the CLI while the server answers /health.
    const file = path.join(dir, "rows.csv");
    writeCsv(file, rows);
    const health: number[] = [];
    let peakPss = 0;
    let peakParts = "";
    const importer = spawn(process.execPath, [BIN, "import", file, "--name", "big"], { env });
    children.push(importer);
    let output = "";
    importer.stdout.on("data", (chunk) => {
      output += chunk;
    });
    importer.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const importDone = new Promise<void>((resolve) => importer.once("exit", () => resolve()));
    let importing = true;
    void importDone.then(() => {
      importing = false;
    });
    const sampler = setInterval(() => {
      const parts = [
        pssMb(serve.pid!),
        pssMb(importer.pid!),
        postgresPids(path.join(dir, "data", "pg")).reduce((sum, pid) => sum + pssMb(pid), 0),
      ];
      const total = parts[0] + parts[1] + parts[2];
      if (total > peakPss) {
        peakPss = total;
        peakParts = `serve ${parts[0].toFixed(0)}, import ${parts[1].toFixed(0)}, PostgreSQL ${parts[2].toFixed(0)}`;
      }
    }, 200);
    while (importing) {
      const started = performance.now();
      await fetch(`${url}/health`).then((response) => response.text());
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    clearInterval(sampler);
    const rate = /\((\d+) rows\/s\)/.exec(output)?.[1];
    if (!rate) throw new Error(`import failed: ${output}`);
    results.push(["import rows/s (CLI, while serve runs)", Number(rate).toLocaleString("en")]);
    results.push([
      "/health during the import: p50 / p95 / max ms",
      `${percentile(health, 50).toFixed(0)} / ${percentile(health, 95).toFixed(0)} / ${Math.max(...health).toFixed(0)}`,
    ]);
    results.push([
      "memory of serve + import + PostgreSQL (PSS), peak MB",
      `${peakPss.toFixed(0)} (${peakParts})`,
    ]);

    // 2. Ten parallel starts with one idempotency key.
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ text: `row ${i} has a text of exactly ten words in it`, label: `l${i % 4}` }),
    );
    const imported = await gql(
      `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { id } } }`,
      { input: { name: "runs", format: "jsonl", content: `${lines.join("\n")}\n` } },
    );
    const sample = await gql(
      `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
      {
        input: {
          datasetId: imported.data!.importDataset.dataset.id,
          seed: 1,
          instanceCount: 2000,
          demonstrationCount: 0,
          shotCounts: [0],
        },
      },
    );
    const sampleId = sample.data!.createSample.sample.id;
    const start = (key: string) =>
      gql(`mutation($input: StartRunInput!) { startRun(input: $input) { created run { id } } }`, {
        input: {
          sampleId,
          kind: "MEMORIZATION",
          setting: "ONLY_SEGMENT_PAIRS",
          shots: 0,
          provider: "slow",
          model: "m",
          idempotencyKey: key,
        },
      });
    const starts = await Promise.all(Array.from({ length: 10 }, () => start("one-key")));
    const runIds = new Set(starts.map((response) => response.data?.startRun.run.id).filter(Boolean));
    const startErrors = starts.filter((response) => response.errors).length;
    results.push([
      "10 parallel startRun, one idempotency key: runs / errors",
      `${runIds.size} / ${startErrors}`,
    ]);

    // 3. Concurrent readers while that run goes (2,000 calls at 50 ms, 32 at once), then once it has finished.
    const runId = [...runIds][0];
    const read = async (seconds: number) => {
      const latencies: number[] = [];
      let errors = 0;
      const messages = new Set<string>();
      const until = Date.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: readers }, async (_, reader) => {
          while (Date.now() < until) {
            const started = performance.now();
            try {
              const response =
                reader % 2 === 0
                  ? await gql(`query($id: ID!) { run(id: $id) { status doneCount failedCount } }`, {
                      id: runId,
                    })
                  : await gql(
                      `query($id: ID!) { run(id: $id) { completions(first: 50) { edges { node { id status output } } } } datasets(first: 5) { edges { node { name instanceCount } } } }`,
                      { id: runId },
                    );
              if (response.errors) {
                errors += 1;
                for (const error of response.errors) messages.add(error.message);
              }
            } catch (error) {
              errors += 1;
              messages.add((error as Error).message);
            }
            latencies.push(performance.now() - started);
          }
        }),
      );
      return { latencies, errors, messages };
    };
    const during = await read(readSeconds);
    for (;;) {
      const state = await gql(`query($id: ID!) { run(id: $id) { status } }`, { id: runId });
      if (state.data?.run.status !== "RUNNING" && state.data?.run.status !== "QUEUED") break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const idle = await read(Math.max(5, readSeconds / 2));
    for (const [label, pass] of [
      ["during the run", during],
      ["after it", idle],
    ] as const) {
      results.push([
        `${readers} concurrent readers ${label}: requests / errors / p50 / p95 ms`,
        `${pass.latencies.length} / ${pass.errors} / ${percentile(pass.latencies, 50).toFixed(0)} / ${percentile(pass.latencies, 95).toFixed(0)}${pass.messages.size ? ` (${[...pass.messages].join("; ")})` : ""}`,
      ]);
    }
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 3000));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}\n`,
  );
  console.log("| embedded default, as a user runs it | measured |\n| --- | ---: |");
  for (const [name, value] of results) console.log(`| ${name} | ${value} |`);
}
