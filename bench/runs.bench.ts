import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { Client } from "pg";
import { createServices, Services } from "../src/api/services";
import { Config, loadConfig } from "../src/config/config";
import { inlineSource } from "../src/dataset/import/import-source";
import { connect, Database } from "../src/db/database";
import { joinCluster } from "../src/db/embedded";
import { createLogger } from "../src/logging/logger";
import { MemorizationSetting, RunKind } from "../src/run/run.entity";
import { RunningWorkers, startWorkers } from "../src/worker/workers";
import { FakeOpenAiServer } from "../test/support/fake-openai-server";

const CONCURRENCY = 32;

interface Result {
  label: string;
  calls: number;
  seconds: number;
  failed: number;
}

/** The floor: the same calls through the `openai` client at the same concurrency, results kept in memory. */
async function floor(url: string, prompts: string[]): Promise<Result> {
  const client = new OpenAI({ baseURL: url, apiKey: "unused", maxRetries: 0 });
  const results: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < prompts.length) {
        const prompt = prompts[next++];
        const response = await client.chat.completions.create({
          model: "bench",
          messages: [{ role: "user", content: prompt }],
          temperature: 0,
          max_tokens: 100,
        });
        results.push(response.choices[0].message.content ?? "");
      }
    }),
  );
  return {
    label: "floor: plain openai client, in memory",
    calls: results.length,
    seconds: (performance.now() - started) / 1000,
    failed: 0,
  };
}

async function database(
  backend: "postgres" | "embedded",
  adminUrl: string,
): Promise<Database & { drop(): Promise<void> }> {
  if (backend === "embedded") {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-bench-"));
    const cluster = await joinCluster(dataDir, createLogger("warn"));
    const db = await connect("embedded", cluster.url, "embedded PostgreSQL", cluster, {});
    return {
      ...db,
      async drop() {
        await db.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `memicl_bench_runs_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await connect("server", url.toString(), name, null, {});
  return {
    ...db,
    async drop() {
      await db.close();
      const again = new Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

/** Imports `rows` texts, samples all of them, runs one memorization run through memicl, and times it. */
async function memicl(
  label: string,
  db: Database,
  config: Config,
  provider: string,
  rows: number,
): Promise<Result & { prompts: string[] }> {
  const services: Services = createServices(db, config, createLogger("silent"));
  let workers: RunningWorkers | null = null;
  try {
    const lines = Array.from({ length: rows }, (_, i) =>
      JSON.stringify({ text: `Benchmark text number ${i} has exactly ten words here.`, label: `l${i % 4}` }),
    );
    const { dataset } = await services.datasetImport.importDataset(
      inlineSource("bench.jsonl", `${lines.join("\n")}\n`),
      {
        datasetName: "bench",
        format: "jsonl",
        split: "train",
      },
    );
    const { sample } = await services.samples.create({
      datasetId: dataset.id,
      seed: 1,
      instanceCount: rows,
      demonstrationCount: 0,
      instanceSplit: "train",
      demonstrationSplit: "train",
      shotCounts: [0],
      cutMin: 0.6,
      cutMax: 0.8,
    });
    workers = await startWorkers(services, config, {
      role: "worker",
      concurrency: CONCURRENCY,
      logger: createLogger("silent"),
    });
    const started = performance.now();
    const { run } = await services.runs.startRun({
      sampleId: sample.id,
      kind: RunKind.MEMORIZATION,
      setting: MemorizationSetting.ONLY_SEGMENT_PAIRS,
      shots: 0,
      provider,
      model: "bench",
      temperature: 0,
      cache: false,
    });
    for (;;) {
      const [state] = await db.dataSource.query(
        "SELECT status, done_count, failed_count FROM run WHERE id = $1",
        [run.id],
      );
      if (["SUCCEEDED", "FAILED", "CANCELLED"].includes(state.status)) {
        const seconds = (performance.now() - started) / 1000;
        const prompts = (
          await db.dataSource.query("SELECT initial_segment FROM sampled_instance WHERE sample_id = $1", [
            sample.id,
          ])
        ).map((row: { initial_segment: string }) => `First piece: ${row.initial_segment}\nSecond piece:`);
        return { label, calls: state.done_count, seconds, failed: state.failed_count, prompts };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await workers?.stop();
    await services.close();
  }
}

/** `npm run bench -- runs [--calls 2000] [--limited-calls 300] [--pg URL]` */
export async function benchRuns(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const calls = Number(option("--calls", "2000"));
  const limitedCalls = Number(option("--limited-calls", "300"));
  const adminUrl = option(
    "--pg",
    process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  );
  const fake = new FakeOpenAiServer();
  const url = await fake.start();
  const base = { type: "openai", baseUrl: url, maxConcurrency: CONCURRENCY, timeoutSeconds: 30 };
  const config = loadConfig({
    LOG_LEVEL: "silent",
    MEMICL_PROVIDERS_FILE: writeProviders({ fast: base, limited: { ...base, requestsPerMinute: 600 } }),
  });
  const results: Result[] = [];
  try {
    for (const [delay, backends] of [
      [50, ["postgres", "embedded"]],
      [0, ["postgres"]],
    ] as const) {
      fake.fallback = { kind: "answer", delayMs: delay };
      for (const backend of backends) {
        const db = await database(backend, adminUrl);
        try {
          const result = await memicl(
            `memicl, ${backend}, server answers after ${delay} ms`,
            db,
            config,
            "fast",
            calls,
          );
          results.push(await floor(url, result.prompts));
          results.at(-1)!.label =
            `floor, server answers after ${delay} ms (same run, just before memicl ${backend})`;
          results.push(result);
        } finally {
          await db.drop();
        }
      }
    }
    fake.fallback = { kind: "answer", delayMs: 50 };
    fake.requestsPerMinute = 600;
    const db = await database("postgres", adminUrl);
    try {
      results.push(
        await memicl(
          "memicl, postgres, server enforces 600 requests/minute (memicl limit: 600/min)",
          db,
          config,
          "limited",
          limitedCalls,
        ),
      );
    } finally {
      await db.drop();
    }
  } finally {
    await fake.stop();
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}, concurrency ${CONCURRENCY}\n`,
  );
  console.log("| what | calls | failed | seconds | calls/s |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const r of results)
    console.log(
      `| ${r.label} | ${r.calls} | ${r.failed} | ${r.seconds.toFixed(2)} | ${(r.calls / r.seconds).toFixed(1)} |`,
    );
  const ratio = (memiclLabel: string, floorLabel: string) => {
    const m = results.find((r) => r.label.startsWith(memiclLabel));
    const f = results.find((r) => r.label.startsWith(floorLabel));
    return m && f ? (m.seconds / f.seconds).toFixed(2) : "n/a";
  };
  console.log(
    `\nratio memicl/floor, 50 ms, PostgreSQL: ${ratio("memicl, postgres, server answers after 50", "floor, server answers after 50 ms (same run, just before memicl postgres")}`,
  );
  console.log(
    `ratio memicl/floor, 50 ms, embedded: ${ratio("memicl, embedded, server answers after 50", "floor, server answers after 50 ms (same run, just before memicl embedded")}`,
  );
  const limited = results.at(-1)!;
  console.log(
    `rate-limited: achieved ${((limited.calls / limited.seconds) * 60).toFixed(0)} requests/minute of 600 (${((limited.calls / limited.seconds / 10) * 100).toFixed(1)}%)`,
  );
}

function writeProviders(providers: Record<string, unknown>): string {
  const fs = require("node:fs") as typeof import("node:fs");
  const path = require("node:path") as typeof import("node:path");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "memicl-bench-")), "providers.json");
  fs.writeFileSync(file, JSON.stringify({ providers }));
  return file;
}
