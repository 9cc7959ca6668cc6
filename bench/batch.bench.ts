import os from "node:os";
import { providersFile as writeProvidersFile } from "../test/support/runs";
import { rteSample } from "./grid.bench";
import {
  benchDatabase,
  Memicl,
  processUsage,
  startMemicl,
  startStandIn,
  waitForExperiment,
} from "./processes";

/**
 * A grid of 10,000 calls through the stand-in's Batch API (files and batches endpoints, each batch answered at
 * once): the wall time from starting the experiment to its last answer stored, and what `memicl serve` spent on it
 * (CPU seconds, so calls per CPU second of memicl's own work, and its peak resident memory). RTE instances at
 * k = 0: the four memorization cells and performance once, 2,000 instances each.
 */
export async function benchBatch(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const instances = Number(option("--instances", "2000"));
  const backend = option("--backend", "postgres") as "postgres" | "embedded";
  const adminUrl = option(
    "--pg",
    process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  );
  const db = await benchDatabase(backend, adminUrl);
  const standIn = await startStandIn(0);
  const providersFile = writeProvidersFile({
    batched: {
      type: "openai",
      baseUrl: standIn.url,
      prices: { bench: { inputPerMillion: 2.5, outputPerMillion: 10 } },
      batch: { pollMinSeconds: 0.5, pollMaxSeconds: 2 },
    },
  });
  let memicl: Memicl | null = null;
  try {
    memicl = await startMemicl({ env: db.env, providersFile, inProcessWorkers: 32 });
    const env = { ...db.env, MEMICL_PROVIDERS_FILE: providersFile };
    const sampleId = await rteSample(memicl, env, {
      instanceCount: instances,
      demonstrationCount: 0,
      shotCounts: [0],
    });
    const before = processUsage(memicl.servePid);
    const started = performance.now();
    const { startExperiment } = await memicl.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "batch",
          sampleIds: [sampleId],
          provider: "batched",
          model: "bench",
          performanceRepeats: 1,
          cache: false,
        },
      },
    );
    const progress = await waitForExperiment(memicl, startExperiment.experiment.id, 500);
    const wall = (performance.now() - started) / 1000;
    const after = processUsage(memicl.servePid);
    const stats = (await (await fetch(`${standIn.url}/stats`)).json()) as {
      answered: number;
      batchesCreated: number;
      batchRequestsSubmitted: number;
      batchMostSubmissions: number;
    };
    const cpu = after.cpuSeconds - before.cpuSeconds;
    console.log(
      `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; ${backend}; ` +
        "stand-in answering each batch at once; polls from 0.5 s, at most 2 s apart\n",
    );
    console.log(
      "| calls | failed | batches | requests submitted | online calls | wall s | memicl serve CPU s | calls per CPU s | peak RSS MB |",
    );
    console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    console.log(
      `| ${progress.done} | ${progress.failed} | ${stats.batchesCreated} | ${stats.batchRequestsSubmitted} | ${stats.answered} | ` +
        `${wall.toFixed(1)} | ${cpu.toFixed(1)} | ${(progress.done / cpu).toFixed(0)} | ${after.peakRssMb.toFixed(0)} |`,
    );
  } finally {
    await memicl?.stop();
    await standIn.stop();
    await db.drop();
  }
}
