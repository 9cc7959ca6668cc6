import os from "node:os";
import OpenAI from "openai";
import { Client } from "pg";
import { providersFile as writeProvidersFile } from "../test/support/runs";
import { benchDatabase, Memicl, startMemicl, startStandIn, waitForRun } from "./processes";

/**
 * The run engine as a user runs it: the stand-in provider in its own process, `memicl serve` (or `memicl serve` +
 * a `memicl worker`) in theirs, everything through GraphQL; the floor (the `openai` client at the same
 * concurrency, answers kept in memory) measured in the same run, against the same stand-in process.
 */

const CONCURRENCY = 32;

interface Result {
  label: string;
  calls: number;
  failed: number;
  seconds: number;
  /** PostgreSQL transactions committed in the bench database per stored completion (PostgreSQL only). */
  commitsPerCall?: number;
  /** Where the wall time went, from the database's own timestamps (PostgreSQL only). */
  phases?: string;
}

/**
 * The run's timeline from its rows: start to the first call's start, the calls, the last answer's write to the
 * run's end, the end to the benchmark's seeing it; and the mean number of calls in flight while calls ran.
 */
async function phases(url: string | undefined, runId: string, startedAt: number, seenAt: number) {
  if (!url) return undefined;
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT extract(epoch FROM min(c.completed_at - c.latency_ms * interval '1 millisecond')) * 1000 AS first_call,
              extract(epoch FROM max(c.completed_at)) * 1000 AS last_write,
              extract(epoch FROM r.finished_at) * 1000 AS finished,
              sum(c.latency_ms)::float8 AS busy_ms, avg(c.latency_ms)::float8 AS latency_ms
       FROM completion c JOIN run r ON r.id = c.run_id WHERE r.id = $1 GROUP BY r.finished_at`,
      [runId],
    );
    const { first_call, last_write, finished, busy_ms, latency_ms } = rows[0];
    const s = (ms: number) => (ms / 1000).toFixed(2);
    return `to first call ${s(first_call - startedAt)} s, calls ${s(last_write - first_call)} s (mean ${(busy_ms / (last_write - first_call)).toFixed(1)} in flight, ${latency_ms.toFixed(1)} ms each), to finished ${s(finished - last_write)} s, seen ${s(seenAt - finished)} s`;
  } finally {
    await client.end();
  }
}

async function commits(url: string | undefined): Promise<number | null> {
  if (!url) return null;
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = current_database()",
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

async function floor(url: string, calls: number): Promise<Result> {
  const client = new OpenAI({ baseURL: url, apiKey: "unused", maxRetries: 0 });
  const answers: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < calls) {
        const i = next++;
        const response = await client.chat.completions.create({
          model: "bench",
          messages: [
            { role: "user", content: `First piece: Benchmark text number ${i} has exactly\nSecond piece:` },
          ],
          temperature: 0,
          max_tokens: 100,
        });
        answers.push(response.choices[0].message.content ?? "");
      }
    }),
  );
  return { label: "floor", calls: answers.length, failed: 0, seconds: (performance.now() - started) / 1000 };
}

/** Imports `rows` texts and samples them all (not timed); returns the sample id. */
async function prepare(memicl: Memicl, rows: number): Promise<string> {
  const lines = Array.from({ length: rows }, (_, i) =>
    JSON.stringify({ text: `Benchmark text number ${i} has exactly ten words here.`, label: `l${i % 4}` }),
  );
  const { importDataset } = await memicl.gql(
    `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { id } } }`,
    { input: { name: "bench", content: `${lines.join("\n")}\n`, format: "jsonl" } },
  );
  const { createSample } = await memicl.gql(
    `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
    {
      input: {
        datasetId: importDataset.dataset.id,
        seed: 1,
        instanceCount: rows,
        demonstrationCount: 0,
        shotCounts: [0],
      },
    },
  );
  return createSample.sample.id;
}

/** One memorization run of `calls` instances through a memicl started as `layout` says; times start to finish. */
async function measure(
  label: string,
  backend: "postgres" | "embedded",
  adminUrl: string,
  providersFile: string,
  provider: string,
  calls: number,
  layout: "serve" | "serve+worker",
): Promise<Result> {
  const db = await benchDatabase(backend, adminUrl);
  let memicl: Memicl | null = null;
  try {
    memicl = await startMemicl({
      env: db.env,
      providersFile,
      inProcessWorkers: layout === "serve" ? CONCURRENCY : 0,
      workers: layout === "serve" ? 0 : 1,
      workerConcurrency: CONCURRENCY,
    });
    const sampleId = await prepare(memicl, calls);
    const commitsBefore = await commits(db.env.DATABASE_URL);
    const started = performance.now();
    const startedAt = Date.now();
    const { startRun } = await memicl.gql(
      `mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`,
      {
        input: {
          sampleId,
          kind: "MEMORIZATION",
          setting: "ONLY_SEGMENT_PAIRS",
          shots: 0,
          provider,
          model: "bench",
          cache: false,
        },
      },
    );
    const { done, failed } = await waitForRun(memicl, startRun.run.id);
    const seconds = (performance.now() - started) / 1000;
    const seenAt = Date.now();
    // Statistics reach pg_stat_database within a second of each transaction.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const commitsAfter = await commits(db.env.DATABASE_URL);
    const commitsPerCall =
      commitsBefore === null || commitsAfter === null ? undefined : (commitsAfter - commitsBefore) / done;
    return {
      label,
      calls: done,
      failed,
      seconds,
      commitsPerCall,
      phases: await phases(db.env.DATABASE_URL, startRun.run.id, startedAt, seenAt),
    };
  } finally {
    await memicl?.stop();
    await db.drop();
  }
}

/** `npm run bench -- engine [--calls 2000] [--rounds 2] [--limited-calls 300] [--pg URL]` */
export async function benchEngine(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const calls = Number(option("--calls", "2000"));
  const rounds = Number(option("--rounds", "2"));
  const limitedCalls = Number(option("--limited-calls", "300"));
  // --only "postgres serve+worker": just that layout at 50 ms (with its floor), for a profile (BENCH_NODE_ARGS);
  // --only instant: just the instant server's pair.
  const only = option("--only", "");
  const adminUrl = option(
    "--pg",
    process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  );
  const results: Result[] = [];
  const ratios: string[] = [];

  const slow = await startStandIn(50);
  const instant = await startStandIn(0);
  const limited = await startStandIn(50, 600);
  const base = { type: "openai", maxConcurrency: CONCURRENCY, timeoutSeconds: 30 };
  const providersFile = writeProvidersFile({
    slow: { ...base, baseUrl: slow.url },
    instant: { ...base, baseUrl: instant.url },
    limited: { ...base, baseUrl: limited.url, requestsPerMinute: 600 },
  });
  try {
    // The floor runs in this process: warmed up first, or the first round's floor is slower (cold code) and its
    // ratio flatters memicl, whose process is new in every measurement anyway.
    await floor(slow.url, 500);
    await floor(instant.url, 1000);
    for (let round = 1; round <= rounds; round++) {
      for (const [backend, layout] of [
        ["postgres", "serve"],
        ["postgres", "serve+worker"],
        ["embedded", "serve"],
      ] as const) {
        if (only && `${backend} ${layout}` !== only) continue;
        const f = await floor(slow.url, calls);
        f.label = `round ${round}: floor, 50 ms (just before the next line)`;
        const m = await measure(
          `round ${round}: memicl ${layout}, ${backend}, 50 ms`,
          backend,
          adminUrl,
          providersFile,
          "slow",
          calls,
          layout,
        );
        results.push(f, m);
        ratios.push(`${backend}, ${layout}, round ${round}: ${(m.seconds / f.seconds).toFixed(2)}x`);
      }
    }
    if (!only || only === "instant") {
      const f0 = await floor(instant.url, calls * 2);
      f0.label = "floor, instant server";
      results.push(f0);
      results.push(
        await measure(
          "memicl serve, postgres, instant server",
          "postgres",
          adminUrl,
          providersFile,
          "instant",
          calls * 2,
          "serve",
        ),
      );
    }
    if (!only) {
      results.push(
        await measure(
          "memicl serve, postgres, server enforces 600 requests/minute (memicl limit: 600/min)",
          "postgres",
          adminUrl,
          providersFile,
          "limited",
          limitedCalls,
          "serve",
        ),
      );
    }
  } finally {
    await slow.stop();
    await instant.stop();
    await limited.stop();
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}, concurrency ${CONCURRENCY}; stand-in servers and memicl each in their own processes\n`,
  );
  console.log("| what | calls | failed | seconds | calls/s | commits/call |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const r of results)
    console.log(
      `| ${r.label} | ${r.calls} | ${r.failed} | ${r.seconds.toFixed(2)} | ${(r.calls / r.seconds).toFixed(1)} | ${r.commitsPerCall?.toFixed(2) ?? ""} |`,
    );
  console.log("\nwhere memicl's wall time went:");
  for (const r of results) if (r.phases) console.log(`- ${r.label}: ${r.phases}`);
  console.log("\nmemicl / floor (wall time, side by side):");
  for (const line of ratios) console.log(`- ${line}`);
  const last = results.at(-1)!;
  if (!only)
    console.log(
      `- rate-limited: ${((last.calls / last.seconds) * 60).toFixed(0)} requests/minute of 600 (${((last.calls / last.seconds / 10) * 100).toFixed(1)}%), ${last.failed} failed`,
    );
}
