import fs from "node:fs";
import path from "node:path";
import { providersFile as writeProvidersFile } from "../test/support/runs";
import { SHARED } from "./grid.bench";
import { benchDatabase, Memicl, startMemicl } from "./processes";

const RTE = path.join(SHARED, "rte", "train.tsv");

/**
 * Drawing a sample of long texts through `memicl serve`: `createSample` on 20 texts of N words (RTE's sentences run
 * together), 10 instances and 10 demonstrations (k = 0, 5, 10), the no-memory floors included; /health is asked
 * every 100 ms meanwhile. Prints the draw's wall time and /health's slowest answer per length; then the draw of a
 * study-sized sample (200 instances, 200 demonstrations) of RTE and DBpedia.
 */
export async function benchLongTexts(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const lengths = option("--words", "500,1000,2000,5000").split(",").map(Number);
  const backend = option("--backend", "embedded") as "postgres" | "embedded";
  const db = await benchDatabase(
    backend,
    option("--pg", process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"),
  );
  const words: string[] = [];
  for (const line of fs.readFileSync(RTE, "utf8").split("\n").slice(1)) {
    const text = line.split("\t")[1];
    if (text) words.push(...text.split(/\s+/));
    if (words.length > 20 * Math.max(...lengths)) break;
  }
  let memicl: Memicl | null = null;
  const rows: string[] = [];
  const studyRows: string[] = [];
  try {
    memicl = await startMemicl({ env: db.env, providersFile: writeProvidersFile({}), inProcessWorkers: 0 });
    const base = memicl.url.replace(/\/graphql$/, "");
    for (const length of lengths) {
      const content = Array.from({ length: 20 }, (_, i) =>
        JSON.stringify({
          text: words.slice(i * length, (i + 1) * length).join(" "),
          label: i % 2 ? "a" : "b",
        }),
      ).join("\n");
      const datasetId = await importDataset(memicl, {
        name: `long-${length}`,
        content: `${content}\n`,
        format: "jsonl",
      });
      let slowest = 0;
      let answered = 0;
      const health = setInterval(() => {
        const started = Date.now();
        void fetch(`${base}/health`)
          .then((response) => {
            if (response.ok) answered += 1;
            slowest = Math.max(slowest, Date.now() - started);
          })
          .catch((error) => process.stderr.write(`/health: ${(error as Error).message}\n`));
      }, 100);
      const seconds = await drawSample(memicl, {
        datasetId,
        seed: 1,
        instanceCount: 10,
        shotCounts: [0, 5, 10],
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      clearInterval(health);
      rows.push(`| ${length.toLocaleString("en")} | ${seconds.toFixed(1)} | ${slowest} | ${answered} |`);
    }
    // Samples of the study's size: 200 instances against 200 demonstrations of a whole shared dataset (k up to
    // 200), where every continuation meets every instance in the demonstration floor.
    for (const [name, file, input] of STUDY_SIZED) {
      if (!fs.existsSync(file)) continue;
      const datasetId = await importDataset(memicl, {
        name,
        content: fs.readFileSync(file, "utf8"),
        ...input,
      });
      const seconds = await drawSample(memicl, {
        datasetId,
        seed: 2024,
        instanceCount: 200,
        shotCounts: [0, 25, 50, 100, 200],
      });
      studyRows.push(`| ${name} | ${seconds.toFixed(1)} |`);
    }
  } finally {
    await memicl?.stop();
    await db.drop();
  }
  process.stdout.write(
    [
      "| words a text | createSample (s) | /health slowest (ms) | /health answers |",
      "| ---: | ---: | ---: | ---: |",
      ...rows,
      "",
      "| 200 instances, 200 demonstrations | createSample (s) |",
      "| --- | ---: |",
      ...studyRows,
      "",
    ].join("\n"),
  );
}

const STUDY_SIZED: [string, string, Record<string, unknown>][] = [
  ["rte", RTE, { format: "tsv" }],
  ["dbpedia", path.join(SHARED, "dbpedia", "sample.csv"), { format: "csv", columns: ["label", "text"] }],
];

async function importDataset(memicl: Memicl, input: Record<string, unknown>): Promise<string> {
  const imported = await memicl.gql(
    `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { id } } }`,
    { input },
  );
  return imported.importDataset.dataset.id;
}

/** Draws a sample with as many demonstrations as instances; returns the draw's wall time in seconds. */
async function drawSample(
  memicl: Memicl,
  sample: { datasetId: string; seed: number; instanceCount: number; shotCounts: number[] },
): Promise<number> {
  const started = Date.now();
  const drawn = await memicl.gql(
    `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
    { input: { ...sample, demonstrationCount: sample.instanceCount } },
  );
  if (!drawn.createSample) throw new Error("no sample drawn");
  return (Date.now() - started) / 1000;
}
