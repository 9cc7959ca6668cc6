import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { providersFile as writeProvidersFile } from "../test/support/runs";
import { geometricMeanInterval, ProgressPoint, pairedRatios, readersOn, windowRates } from "./interleave";
import { percentile } from "./percentile";
import {
  benchDatabase,
  Memicl,
  machineBusySeconds,
  machineStealSeconds,
  memiclCommand,
  postgresCpuSeconds,
  processUsage,
  serveMetric,
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
export const SHARED = path.resolve(ROOT, "../shared/data/datasets");

export async function prepare(
  memicl: Memicl,
  env: Record<string, string>,
  instances: number,
): Promise<string[]> {
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

/** The shared RTE file imported and one sample of it drawn (seed 1); returns the sample's id. */
export async function rteSample(
  memicl: Memicl,
  env: Record<string, string>,
  sample: { instanceCount: number; demonstrationCount: number; shotCounts: number[] },
): Promise<string> {
  await memiclCommand(["import", path.join(SHARED, "rte/train.tsv"), "--name", "rte"], env);
  const { datasets } = await memicl.gql("{ datasets(first: 10) { edges { node { id name } } } }");
  const { createSample } = await memicl.gql(
    `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
    { input: { datasetId: datasets.edges[0].node.id, seed: 1, ...sample } },
  );
  return createSample.sample.id;
}

/**
 * What the dashboards send: the report and a breakdown, or (`--reads version`) two requests of the lightest query
 * at the same beat, which cost serve what any GraphQL request does (HTTP, Express, Apollo) and nothing of the
 * results: the part of the readers' cost no work on the report path can remove.
 */
const READER_QUERIES = {
  report: {
    said: "the report and a breakdown",
    report: `query($id: ID!) { studyReport(experimentId: $id) { computedAt memorization { sampleId setting shots n rate ciLow ciHigh } performance { shots accuracy } correlations { setting pearson } } }`,
    breakdown: `query($id: ID!) { memorizationBreakdown(filter: { experimentId: $id }) { computedAt setting shots n rate ciLow ciHigh } }`,
  },
  version: {
    said: "{ version } twice",
    // The experiment's id is sent and, not declared, ignored.
    report: `{ version { codeVersion } }`,
    breakdown: `{ version { codeVersion } }`,
  },
} as const;
type ReaderQueries = keyof typeof READER_QUERIES;
interface Readers {
  count: number;
  everyMs: number;
  reads: ReaderQueries;
}
const NO_READERS: Readers = { count: 0, everyMs: 0, reads: "report" };

/**
 * Dashboards polling the experiment while it runs: each asks for the report and a breakdown every `everyMs`. Each
 * dashboard's first report read is also kept apart: opened as the grid starts, it waits for the first computation
 * (the samples' no-memory floors among it), which the later reads, served the last value, do not.
 */
function startReaders(memicl: Memicl, experimentId: string, { count: readers, everyMs, reads }: Readers) {
  const report: number[] = [];
  const firstReport: number[] = [];
  const laterReport: number[] = [];
  const breakdown: number[] = [];
  let stopped = false;
  // Switched off and on by an interleaved run (`--interleave`): a dashboard that is off waits to be on again.
  let on = true;
  let switchedOn: () => void = () => {};
  let whenOn = Promise.resolve();
  // Read as a remote dashboard's reads reach serve (`Memicl.read`): answered in full, not parsed here.
  const timed = async (into: number[], query: string) => {
    const started = performance.now();
    await memicl.read(query, { id: experimentId });
    into.push(performance.now() - started);
  };
  // Each dashboard reads on its own beat (spread over the interval, as independent dashboards would be), skipping
  // the beats its last read overran; switched on, it reads at its next beat, so all of them are back within one
  // interval of the switch, at their usual spread.
  const origin = performance.now();
  const untilNextBeat = (index: number) => {
    const offset = (everyMs * index) / readers;
    const beats = Math.max(0, Math.ceil((performance.now() - origin - offset) / everyMs));
    const at = origin + offset + beats * everyMs;
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
  };
  const loops = Array.from({ length: readers }, async (_, index) => {
    for (let read = 0; ; read += 1) {
      await untilNextBeat(index);
      if (!on) {
        await whenOn;
        await untilNextBeat(index);
      }
      if (stopped) break;
      await timed(report, READER_QUERIES[reads].report);
      (read === 0 ? firstReport : laterReport).push(report[report.length - 1]);
      await timed(breakdown, READER_QUERIES[reads].breakdown);
    }
  });
  return {
    switch(toOn: boolean) {
      if (toOn === on) return;
      on = toOn;
      if (on) switchedOn();
      else whenOn = new Promise((resolve) => (switchedOn = resolve));
    },
    async stop() {
      stopped = true;
      this.switch(true);
      await Promise.all(loops);
      return { report, firstReport, laterReport, breakdown };
    },
  };
}

const NO_READS = { report: [], firstReport: [], laterReport: [], breakdown: [] } as const;

/** The recorded calls sent again by the bare `openai` client in its own process (replay-floor.ts). */
function replayFloor(url: string, file: string): Promise<{ calls: number; failed: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ["--max-old-space-size=8192", path.join(__dirname, "replay-floor.js"), "--url", url, "--file", file],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    proc.stdout.on("data", (chunk) => {
      output += chunk;
    });
    proc.on("error", reject);
    proc.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(output.trim())) : reject(new Error(`replay-floor exited with ${code}`)),
    );
  });
}

async function measure(
  backend: "postgres" | "embedded",
  adminUrl: string,
  providersFile: string,
  instances: number,
  readers: Readers,
  workers: number,
  /** Readers switched on and off in alternate windows of `windowCalls` calls (`--interleave`). */
  interleave: { windowCalls: number; startOn: boolean } | null = null,
) {
  const db = await benchDatabase(backend, adminUrl);
  let memicl: Memicl | null = null;
  try {
    // Calls made in `memicl serve` (32 at once), or by `workers` worker processes (32 at once in all) while serve
    // only serves.
    memicl = await startMemicl({
      env: db.env,
      providersFile,
      inProcessWorkers: workers > 0 ? 0 : 32,
      workers,
      workerConcurrency: Math.max(1, Math.ceil(32 / Math.max(1, workers))),
    });
    const sampleIds = await prepare(memicl, { ...db.env, MEMICL_PROVIDERS_FILE: providersFile }, instances);
    const started = performance.now();
    const computations = () =>
      Promise.all([
        serveMetric(memicl!, "memicl_results_computations_total"),
        serveMetric(memicl!, "memicl_results_computing_seconds_total"),
      ]);
    const computedBefore = await computations();
    const cpuBefore = {
      serve: processUsage(memicl.servePid).cpuSeconds,
      postgres: postgresCpuSeconds(),
      machine: machineBusySeconds(),
      steal: machineStealSeconds(),
    };
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
    const polling = readers.count > 0 ? startReaders(memicl, startExperiment.experiment.id, readers) : null;
    const points: ProgressPoint[] = [{ atMs: queued, done: 0 }];
    // Interleaved: the readers on in every other window of `windowCalls` calls, switched at the first progress
    // read past a window's start (read every 100 ms then, to switch within a few dozen calls).
    if (interleave) polling?.switch(readersOn(0, interleave.startOn));
    const progress = await waitForExperiment(
      memicl,
      startExperiment.experiment.id,
      interleave ? 100 : 250,
      (atMs, done) => {
        points.push({ atMs, done });
        if (interleave)
          polling?.switch(readersOn(Math.floor(done / interleave.windowCalls), interleave.startOn));
      },
    );
    const finished = performance.now();
    // CPU spent from startExperiment until the runs are done (the readers' share included when they poll).
    const cpu = {
      serve: processUsage(memicl.servePid).cpuSeconds - cpuBefore.serve,
      postgres: postgresCpuSeconds() - cpuBefore.postgres,
      machine: machineBusySeconds() - cpuBefore.machine,
      steal: machineStealSeconds() - cpuBefore.steal,
    };
    // The report, breakdowns and comparisons the server computed for the readers meanwhile (its /metrics).
    const computedAfter = await computations();
    const computed = {
      count: computedAfter[0] - computedBefore[0],
      seconds: computedAfter[1] - computedBefore[1],
    };
    const reads = await polling?.stop();
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
      workers,
      readers: readers.count,
      reads,
      points,
      cpu,
      computed,
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

/**
 * `npm run bench -- grid [--backends postgres,embedded] [--instances 200] [--readers 10] [--poll-ms 1000]
 *   [--reads report|version]
 *   [--pairs 1] [--interleave CALLS] [--control] [--workers 0] [--pg URL]`
 *
 * Per backend: the grid through memicl, against a stand-in that records every request body; then the floor, the
 * bare `openai` client sending the same bodies at the same concurrency to a fresh stand-in; the ratio of the two
 * wall times. With `--readers N`, the grid runs again on fresh databases, `--pairs` times without readers and with
 * N dashboards polling it, so each ratio compares two runs made one after the other; the run with readers goes
 * second in odd pairs and first in even ones, so that whatever the order favours cancels out in the median.
 * `--control` runs the same pairs with no readers in either run (an A/A check: the spread and the median of
 * ratios the benchmark reports when nothing differs). `--interleave CALLS` measures the readers' cost window by
 * window instead (bench/interleave.ts): each pair is two runs with the readers on in every other window of CALLS
 * calls, in opposite phase, and the floor is not measured. `--reads version` has the dashboards send the
 * lightest query instead (READER_QUERIES). `--workers N` makes the calls in N `memicl worker` processes while
 * `memicl serve` only serves (the layout of docs/OPERATIONS.md); 0, the default, makes them in serve.
 */
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
  const reads = option("--reads", "report");
  if (!(reads in READER_QUERIES)) throw new Error(`--reads is report or version, not ${reads}`);
  const readers: Readers = {
    count: Number(option("--readers", "0")),
    everyMs: Number(option("--poll-ms", "1000")),
    reads: reads as ReaderQueries,
  };
  const pairs = Number(option("--pairs", "1"));
  const control = args.includes("--control");
  const workers = Number(option("--workers", "0"));
  const windowCalls = Number(option("--interleave", "0"));
  const interleaved: {
    first: Awaited<ReturnType<typeof measure>>;
    second: Awaited<ReturnType<typeof measure>>;
    firstStartsOn: boolean;
  }[] = [];
  const paired: {
    alone: Awaited<ReturnType<typeof measure>>;
    polled: Awaited<ReturnType<typeof measure>>;
    readersFirst: boolean;
  }[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-grid-"));
  const results = [];
  const floors = [];
  try {
    for (const backend of backends) {
      // An interleaved measurement is its own runs (the floor is the plain command's).
      const withFloor = windowCalls === 0;
      const recorded = path.join(dir, `${backend}.jsonl`);
      if (withFloor) {
        const standIn = await startStandIn(0, undefined, recorded);
        const providersFile = writeProvidersFile({
          instant: { type: "openai", baseUrl: standIn.url, maxConcurrency: 32, timeoutSeconds: 60 },
        });
        try {
          results.push(await measure(backend, adminUrl, providersFile, instances, NO_READERS, workers));
        } finally {
          await standIn.stop();
        }
        const plain = await startStandIn(0);
        try {
          floors.push({ backend, ...(await replayFloor(plain.url, recorded)) });
        } finally {
          await plain.stop();
          fs.rmSync(recorded, { force: true });
        }
      }
      for (let pair = 0; windowCalls > 0 && pair < pairs; pair += 1) {
        const again = await startStandIn(0);
        const file = writeProvidersFile({
          instant: { type: "openai", baseUrl: again.url, maxConcurrency: 32, timeoutSeconds: 60 },
        });
        try {
          // Which run starts with the readers on alternates from pair to pair, as the order of a plain pair does.
          const firstStartsOn = pair % 2 === 1;
          const run = (startOn: boolean) =>
            measure(backend, adminUrl, file, instances, control ? NO_READERS : readers, workers, {
              windowCalls,
              startOn,
            });
          const first = await run(firstStartsOn);
          const second = await run(!firstStartsOn);
          interleaved.push({ first, second, firstStartsOn });
        } finally {
          await again.stop();
        }
      }
      for (let pair = 0; windowCalls === 0 && readers.count > 0 && pair < pairs; pair += 1) {
        const again = await startStandIn(0);
        const file = writeProvidersFile({
          instant: { type: "openai", baseUrl: again.url, maxConcurrency: 32, timeoutSeconds: 60 },
        });
        try {
          const run = (withReaders: boolean) =>
            measure(
              backend,
              adminUrl,
              file,
              instances,
              withReaders && !control ? readers : NO_READERS,
              workers,
            );
          const readersFirst = pair % 2 === 1;
          const first = await run(readersFirst);
          const second = await run(!readersFirst);
          const [alone, polled] = readersFirst ? [second, first] : [first, second];
          paired.push({ alone, polled, readersFirst });
          results.push(polled);
        } finally {
          await again.stop();
        }
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; 32 calls at once ${workers > 0 ? `in ${workers} memicl worker process(es), serve only serving` : "in memicl serve"}; instant stand-in server in its own process\n`,
  );
  if (results.length > 0) {
    console.log(
      "| database | readers | runs | calls | failed | judged | startExperiment s | runs s | report s | total s | calls/s |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const r of results)
      console.log(
        `| ${r.backend} | ${r.readers} | ${r.runs} | ${r.calls} | ${r.failed} | ${r.judged} | ${r.start.toFixed(2)} | ${r.run.toFixed(1)} | ${r.report.toFixed(2)} | ${r.total.toFixed(1)} | ${(r.calls / r.run).toFixed(0)} |`,
      );
    console.log(
      "\nThe floor: the bare `openai` client sending the same request bodies, 32 at once, in its own process.\n",
    );
    console.log(
      "| database | floor calls | failed | floor s | memicl runs s / floor s | memicl total s / floor s |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (const f of floors) {
      const r = results.find((result) => result.backend === f.backend && result.readers === 0)!;
      console.log(
        `| ${f.backend} | ${f.calls} | ${f.failed} | ${f.seconds.toFixed(1)} | ${(r.run / f.seconds).toFixed(2)}x | ${(r.total / f.seconds).toFixed(2)}x |`,
      );
    }
  }
  if (interleaved.length > 0) printInterleaved(interleaved, readers, control, windowCalls);
  if (paired.length > 0) {
    console.log(
      control
        ? "\nControl (--control): pairs of two runs with no readers in either; the columns say 'with' of the run that would have had them:\n"
        : `\nWith ${readers.count} dashboards polling ${READER_QUERIES[readers.reads].said} every ${readers.everyMs} ms, each run beside one without them made just before or after it (order: which went first):\n`,
    );
    console.log(
      "| database | pair | order | reads | report p50 ms | report p95 ms | first reads max ms | later reads p95 ms | breakdown p50 ms | breakdown p95 ms | calls/s without | calls/s with | with / without |",
    );
    console.log("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : "-");
    paired.forEach(({ alone, polled, readersFirst }, index) => {
      const { report, firstReport, laterReport, breakdown } = polled.reads ?? NO_READS;
      console.log(
        `| ${polled.backend} | ${index + 1} | ${readersFirst ? "with first" : "without first"} | ${report.length + breakdown.length} | ${ms(percentile(report, 50))} | ${ms(percentile(report, 95))} | ${ms(Math.max(...firstReport))} | ${ms(percentile(laterReport, 95))} | ${ms(percentile(breakdown, 50))} | ${ms(percentile(breakdown, 95))} | ${(alone.calls / alone.run).toFixed(0)} | ${(polled.calls / polled.run).toFixed(0)} | ${(polled.calls / polled.run / (alone.calls / alone.run)).toFixed(2)} |`,
      );
    });
    // CPU is steadier than throughput: what the readers cost each process, in seconds over the whole run.
    console.log(
      "\nCPU seconds from startExperiment to the runs' end (machine: every process, the readers' client included, and the host's steal, also shown apart):\n",
    );
    console.log(
      "| database | pair | serve without | serve with | PostgreSQL without | PostgreSQL with | machine without | machine with | machine with - without | steal without | steal with | results computed with (count, wall s) |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    paired.forEach(({ alone, polled }, index) => {
      console.log(
        `| ${polled.backend} | ${index + 1} | ${alone.cpu.serve.toFixed(1)} | ${polled.cpu.serve.toFixed(1)} | ${alone.cpu.postgres.toFixed(1)} | ${polled.cpu.postgres.toFixed(1)} | ${alone.cpu.machine.toFixed(1)} | ${polled.cpu.machine.toFixed(1)} | ${(polled.cpu.machine - alone.cpu.machine).toFixed(1)} | ${alone.cpu.steal.toFixed(1)} | ${polled.cpu.steal.toFixed(1)} | ${polled.computed.count}, ${polled.computed.seconds.toFixed(2)} |`,
      );
    });
    // One pair's ratio moves by as much as the target (the runs without readers alone vary by 10-20% from one to
    // the next on a shared two-core machine): the summary over the pairs is what a claim rests on.
    for (const backend of new Set(paired.map(({ polled }) => polled.backend))) {
      const pairs = paired.filter(({ polled }) => polled.backend === backend);
      const ratios = pairs.map(({ alone, polled }) => polled.calls / polled.run / (alone.calls / alone.run));
      const without = pairs.map(({ alone }) => alone.calls / alone.run);
      const reports = pairs.flatMap(({ polled }) => (polled.reads ?? NO_READS).report);
      const later = pairs.flatMap(({ polled }) => (polled.reads ?? NO_READS).laterReport);
      console.log(
        `\n${backend}, ${pairs.length} pair(s): with / without median ${percentile(ratios, 50).toFixed(2)} (nearest rank; ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}), ${ratios.filter((ratio) => ratio >= 0.9).length} of ${pairs.length} within 10%; calls/s without readers ${Math.min(...without).toFixed(0)}-${Math.max(...without).toFixed(0)}; report p95 over every pair's reads ${ms(percentile(reports, 95))} ms, over the reads after each dashboard's first ${ms(percentile(later, 95))} ms`,
      );
    }
  }
}

/**
 * Calls into a window with the readers off before its rate is counted: what they started before the switch (a
 * computation, the reads in flight) ends in the window before's time, not this one's.
 */
const GUARD_CALLS = 300;

function printInterleaved(
  pairs: {
    first: Awaited<ReturnType<typeof measure>>;
    second: Awaited<ReturnType<typeof measure>>;
    firstStartsOn: boolean;
  }[],
  readers: Readers,
  control: boolean,
  windowCalls: number,
) {
  console.log(
    control
      ? `\nControl (--control --interleave ${windowCalls}): no readers in any window; 'on' names the windows that would have had them:\n`
      : `\nInterleaved (--interleave ${windowCalls}): ${readers.count} dashboards polling ${READER_QUERIES[readers.reads].said} every ${readers.everyMs} ms, on in every other window of ${windowCalls} calls, two runs in opposite phase; each window's calls a second with the readers on over the same window's with them off (counted from its ${GUARD_CALLS}th call when off):\n`,
  );
  console.log(
    "| database | pair | windows | calls/s, readers off (range) | on / off, window by window | geometric mean (95% t interval) | report p95 ms | results computed (count, wall s) |",
  );
  console.log("| --- | ---: | ---: | --- | --- | --- | ---: | --- |");
  const all = new Map<string, number[]>();
  pairs.forEach(({ first, second, firstStartsOn }, index) => {
    const rates = (run: Awaited<ReturnType<typeof measure>>, startOn: boolean) => {
      const total = run.points[run.points.length - 1].done;
      // The run's tail (its last runs finishing with slots to spare) is left out: windows up to 95% of the calls.
      return windowRates(
        run.points,
        windowCalls,
        (k) => (readersOn(k, startOn) ? 0 : GUARD_CALLS),
        0.95 * total,
      );
    };
    const [a, b] = [rates(first, firstStartsOn), rates(second, !firstStartsOn)];
    const ratios = pairedRatios(a, b, firstStartsOn);
    all.set(first.backend, [...(all.get(first.backend) ?? []), ...ratios]);
    const off = [...a.entries()]
      .map(([k, rate]) => (readersOn(k, firstStartsOn) ? b[k] : rate))
      .filter(Number.isFinite);
    const interval = geometricMeanInterval(ratios);
    const report = [...(first.reads ?? NO_READS).report, ...(second.reads ?? NO_READS).report];
    console.log(
      `| ${first.backend} | ${index + 1} | ${ratios.length} | ${Math.min(...off).toFixed(0)}-${Math.max(...off).toFixed(0)} | ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")} | ${interval.mean.toFixed(3)} (${interval.low.toFixed(3)}-${interval.high.toFixed(3)}) | ${report.length > 0 ? percentile(report, 95).toFixed(0) : "-"} | ${first.computed.count + second.computed.count}, ${(first.computed.seconds + second.computed.seconds).toFixed(2)} |`,
    );
  });
  for (const [backend, ratios] of all) {
    const interval = geometricMeanInterval(ratios);
    console.log(
      `\n${backend}, ${pairs.filter(({ first }) => first.backend === backend).length} pair(s), ${ratios.length} windows: on / off ${interval.mean.toFixed(3)} (95% t interval ${interval.low.toFixed(3)}-${interval.high.toFixed(3)}), median ${percentile(ratios, 50).toFixed(2)}`,
    );
  }
}
