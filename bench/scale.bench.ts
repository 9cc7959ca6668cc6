import os from "node:os";
import { Client } from "pg";
import { withClient } from "../test/support/databases";
import { providersFile as writeProvidersFile } from "../test/support/runs";
import { prepare } from "./grid.bench";
import { benchDatabase, Memicl, startMemicl, startStandIn, waitForExperiment } from "./processes";

/**
 * Scale-out: the paper's grid (24,000 calls with 200 instances a sample) run by N `memicl worker` processes on one
 * PostgreSQL server, `memicl serve` only serving, against a stand-in that refuses (429) calls beyond a
 * requests-per-minute limit, the limit also configured for memicl's shared limiter. Each process's pools are sized
 * from the server's max_connections (the connection math of docs/OPERATIONS.md), and the connections the database
 * holds are sampled throughout. Exact counts: every call answered once (the stand-in's count of answered calls
 * equals the completions stored), none failed.
 */

interface Measured {
  workers: number;
  poolSize: number;
  queuePoolSize: number;
  calls: number;
  failed: number;
  answered: number;
  rateLimited: number;
  /**
   * Attempts beyond each item's first, as memicl counted them (a 429 or another error tried again): set against
   * the 429s, it tells a call memicl made twice on purpose from one two workers made (answered more than stored).
   */
  retries: number;
  /** The most calls memicl sent in any rolling minute (answered or refused), as the stand-in counted them. */
  peakPerMinute: number;
  seconds: number;
  peakConnections: number;
  maxConnections: number;
}

/** Connections this database's clients hold now (pg_stat_activity). */
async function connectionsOf(admin: Client, database: string): Promise<number> {
  const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [
    database,
  ]);
  return rows[0].n;
}

async function measure(workers: number, adminUrl: string, rpm: number, instances: number): Promise<Measured> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const maxConnections = Number((await admin.query("SHOW max_connections")).rows[0].max_connections);
  const reserved = Number(
    (await admin.query("SHOW superuser_reserved_connections")).rows[0].superuser_reserved_connections,
  );
  // Every process (serve and the workers) holds up to pool + queue pool connections; leave the reserved ones,
  // this benchmark's own two, and a margin of five for an operator's psql.
  const perProcess = Math.floor((maxConnections - reserved - 2 - 5) / (workers + 1));
  const queuePoolSize = Math.max(1, Math.min(4, Math.floor(perProcess / 4)));
  const poolSize = Math.max(1, Math.min(10, perProcess - queuePoolSize));
  const db = await benchDatabase("postgres", adminUrl);
  const database = new URL(db.env.DATABASE_URL).pathname.slice(1);
  const standIn = await startStandIn(0, rpm);
  const providersFile = writeProvidersFile({
    limited: {
      type: "openai",
      baseUrl: standIn.url,
      maxConcurrency: 32,
      timeoutSeconds: 60,
      requestsPerMinute: rpm,
    },
  });
  let memicl: Memicl | null = null;
  let peakConnections = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakConnections = Math.max(peakConnections, await connectionsOf(admin, database));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  try {
    const env = {
      ...db.env,
      MEMICL_DB_POOL_SIZE: String(poolSize),
      MEMICL_QUEUE_POOL_SIZE: String(queuePoolSize),
    };
    memicl = await startMemicl({
      env,
      providersFile,
      inProcessWorkers: 0,
      workers,
      workerConcurrency: Math.max(1, Math.ceil(64 / workers)),
    });
    const sampleIds = await prepare(memicl, { ...env, MEMICL_PROVIDERS_FILE: providersFile }, instances);
    const started = performance.now();
    const { startExperiment } = await memicl.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } } }`,
      {
        input: {
          name: "scale",
          sampleIds,
          provider: "limited",
          model: "bench",
          performanceRepeats: 3,
          cache: false,
        },
      },
    );
    const progress = await waitForExperiment(memicl, startExperiment.experiment.id, 1_000);
    const seconds = (performance.now() - started) / 1000;
    const retries = await withClient(db.env.DATABASE_URL, async (client) =>
      Number(
        (await client.query("SELECT coalesce(sum(attempts) - count(*), 0) AS n FROM completion")).rows[0].n,
      ),
    );
    const stats = (await (await fetch(`${standIn.url}/stats`)).json()) as {
      answered: number;
      rateLimited: number;
      peakPerMinute: number;
    };
    return {
      workers,
      poolSize,
      queuePoolSize,
      calls: progress.done,
      failed: progress.failed,
      answered: stats.answered,
      rateLimited: stats.rateLimited,
      retries,
      peakPerMinute: stats.peakPerMinute,
      seconds,
      peakConnections,
      maxConnections,
    };
  } finally {
    sampling = false;
    await sampler;
    await memicl?.stop();
    await standIn.stop();
    await db.drop();
    await admin.end();
  }
}

/** `npm run bench -- scale [--workers 1,4,20] [--rpm 6000] [--instances 200] [--pg URL]` */
export async function benchScale(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const counts = option("--workers", "1,4,20").split(",").map(Number);
  const rpm = Number(option("--rpm", "6000"));
  const instances = Number(option("--instances", "200"));
  const adminUrl = option(
    "--pg",
    process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  );
  const results: Measured[] = [];
  for (const workers of counts) {
    results.push(await measure(workers, adminUrl, rpm, instances));
    process.stderr.write(`${workers} workers: ${JSON.stringify(results.at(-1))}\n`);
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; stand-in limited to ${rpm} requests/minute (429 beyond), the same limit configured in memicl; serve only serving\n`,
  );
  console.log(
    "| workers | pool + queue pool each | calls | failed | answered by the stand-in | 429s | attempts retried | most sent in a minute | of the limit | s | calls/s | average of the limit | peak connections | max_connections |",
  );
  console.log(
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const r of results)
    console.log(
      `| ${r.workers} | ${r.poolSize} + ${r.queuePoolSize} | ${r.calls} | ${r.failed} | ${r.answered} | ${r.rateLimited} | ${r.retries} | ${r.peakPerMinute} | ${((100 * r.peakPerMinute) / rpm).toFixed(1)}% | ${r.seconds.toFixed(1)} | ${(r.calls / r.seconds).toFixed(1)} | ${((100 * r.calls) / r.seconds / (rpm / 60)).toFixed(1)}% | ${r.peakConnections} | ${r.maxConnections} |`,
    );
}
