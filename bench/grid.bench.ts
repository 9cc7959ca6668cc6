import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { providersFile as writeProvidersFile } from "../test/support/runs";
import {
  benchDatabase,
  Memicl,
  memiclCommand,
  startMemicl,
  startStandIn,
  waitForExperiment,
} from "./processes";

/**
 * The paper's whole grid for one model, as a user runs it: four samples of 200 instances and 200 demonstrations,
 * k = 0, 25, 50, 100, 200, the three memorization settings and three performance repeats (24,000 calls, 12,000
 * heuristic judgments), against an instant stand-in server in its own process; timed from startExperiment to
 * the study report. The shared datasets are used (RTE, TREC, DBpedia); WNLI has 71 rows, too few for 200 + 200,
 * so the fourth sample is a second RTE sample (another seed): the same NLI layout and prompt sizes.
 */

const ROOT = path.resolve(__dirname, "../..");
const SHARED = path.resolve(ROOT, "../shared/data/datasets");

async function prepare(memicl: Memicl, env: Record<string, string>, instances: number): Promise<string[]> {
  await memiclCommand(["import", path.join(SHARED, "rte/train.tsv"), "--name", "rte"], env);
  await memiclCommand(["import", path.join(SHARED, "trec/train_5500.label"), "--name", "trec"], env);
  await memiclCommand(
    [
      "import",
      path.join(SHARED, "dbpedia/sample.csv"),
      "--name",
      "dbpedia",
      "--columns",
      "label,text",
      "--verbalizers",
      path.join(SHARED, "dbpedia/classes.txt"),
    ],
    env,
  );
  const { datasets } = await memicl.gql("{ datasets(first: 10) { edges { node { id name } } } }");
  const byName = Object.fromEntries(datasets.edges.map((edge: any) => [edge.node.name, edge.node.id]));
  const samples: string[] = [];
  for (const [name, seed] of [
    ["rte", 1],
    ["rte", 2],
    ["trec", 1],
    ["dbpedia", 1],
  ] as const) {
    const { createSample } = await memicl.gql(
      `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
      { input: { datasetId: byName[name], seed, name: `${name} seed ${seed}`, instanceCount: instances } },
    );
    samples.push(createSample.sample.id);
  }
  return samples;
}

async function measure(
  backend: "postgres" | "embedded",
  adminUrl: string,
  providersFile: string,
  instances: number,
) {
  const db = await benchDatabase(backend, adminUrl);
  let memicl: Memicl | null = null;
  try {
    memicl = await startMemicl({ env: db.env, providersFile, inProcessWorkers: 32 });
    const sampleIds = await prepare(memicl, { ...db.env, MEMICL_PROVIDERS_FILE: providersFile }, instances);
    const started = performance.now();
    const { startExperiment } = await memicl.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "grid",
          sampleIds,
          provider: "instant",
          model: "bench",
          performanceRepeats: 3,
          cache: false,
        },
      },
    );
    const queued = performance.now();
    const progress = await waitForExperiment(memicl, startExperiment.experiment.id);
    const finished = performance.now();
    const { studyReport } = await memicl.gql(
      `query($id: ID!) { studyReport(experimentId: $id) { memorization { sampleId n } hypothesisTests } }`,
      { id: startExperiment.experiment.id },
    );
    const reported = performance.now();
    // Per-sample rows only (a dataset with two samples also has a pooled row).
    const judged = studyReport.memorization
      .filter((row: { sampleId: string | null }) => row.sampleId !== null)
      .reduce((total: number, row: { n: number }) => total + row.n, 0);
    return {
      backend,
      runs: startExperiment.runs.length,
      calls: progress.done,
      failed: progress.failed,
      judged,
      start: (queued - started) / 1000,
      run: (finished - queued) / 1000,
      report: (reported - finished) / 1000,
      total: (reported - started) / 1000,
    };
  } finally {
    await memicl?.stop();
    await db.drop();
  }
}

/** `npm run bench -- grid [--backends postgres,embedded] [--instances 200] [--pg URL]` */
export async function benchGrid(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  if (!fs.existsSync(SHARED)) throw new Error(`the shared datasets are not at ${SHARED}`);
  const backends = option("--backends", "postgres,embedded").split(",") as ("postgres" | "embedded")[];
  // Fewer instances (the demonstrations, and so the prompts, stay as large) for a quicker look or a profile.
  const instances = Number(option("--instances", "200"));
  const adminUrl = option(
    "--pg",
    process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  );
  const standIn = await startStandIn(0);
  const providersFile = writeProvidersFile({
    instant: { type: "openai", baseUrl: standIn.url, maxConcurrency: 32, timeoutSeconds: 60 },
  });
  const results = [];
  try {
    for (const backend of backends) results.push(await measure(backend, adminUrl, providersFile, instances));
  } finally {
    await standIn.stop();
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; 32 calls at once; instant stand-in server in its own process\n`,
  );
  console.log(
    "| database | runs | calls | failed | judged | startExperiment s | runs s | report s | total s | calls/s |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of results)
    console.log(
      `| ${r.backend} | ${r.runs} | ${r.calls} | ${r.failed} | ${r.judged} | ${r.start.toFixed(2)} | ${r.run.toFixed(1)} | ${r.report.toFixed(2)} | ${r.total.toFixed(1)} | ${(r.calls / r.run).toFixed(0)} |`,
    );
}
