import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";

const WORDS =
  "the of and in a to was is for on as by with from at an his he it which that were are also its this first after have be has new one their but had two been they who her".split(
    " ",
  );

/** A DBpedia-like CSV: label,text with ~50 words per row (quoted, with commas). */
export function writeCsv(file: string, rows: number) {
  const fd = fs.openSync(file, "w");
  let seed = 42;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed;
  };
  let chunk = "label,text\n";
  for (let i = 0; i < rows; i += 1) {
    const words: string[] = [];
    for (let w = 0; w < 50; w += 1) words.push(WORDS[next() % WORDS.length]);
    chunk += `${(i % 14) + 1},"Entity ${i}, ${words.join(" ")}."\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(fd, chunk);
      chunk = "";
    }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
}

interface Measurement {
  backend: string;
  rows: number;
  megabytes: number;
  seconds: number;
  rowsPerSecond: number;
  importSeconds: number;
  importRowsPerSecond: number;
  peakRssMb: number;
}

/** Runs `memicl import` in a child process (the real user path) and reads its peak RSS from the kernel. */
function measure(
  backend: string,
  file: string,
  rows: number,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Measurement {
  const started = process.hrtime.bigint();
  const child = spawnSync(
    process.execPath,
    [
      ...nodeArgs,
      "-e",
      `require("reflect-metadata");
       const { main } = require(${JSON.stringify(path.resolve(__dirname, "../src/cli/main.js"))});
       main(["node", "memicl", "import", ${JSON.stringify(file)}, "--name", "bench-" + Date.now()]).then(() => {
         process.stderr.write("MAXRSS " + process.resourceUsage().maxRSS + "\\n");
       });`,
    ],
    { env: { ...process.env, ...env, LOG_LEVEL: "warn" }, encoding: "utf8" },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (child.status !== 0 || !/imported (\d+) rows/.test(child.stdout)) {
    throw new Error(`import failed on ${backend}: ${child.stdout}${child.stderr}`);
  }
  const maxRssKb = Number(/MAXRSS (\d+)/.exec(child.stderr)?.[1]);
  const importSeconds = Number(/took ([\d.]+) s/.exec(child.stdout)?.[1]);
  return {
    backend,
    rows,
    megabytes: fs.statSync(file).size / 1e6,
    seconds,
    rowsPerSecond: rows / seconds,
    importSeconds,
    importRowsPerSecond: rows / importSeconds,
    peakRssMb: maxRssKb / 1024,
  };
}

async function freshPostgres(adminUrl: string): Promise<string> {
  const name = `memicl_bench_${process.pid}_${Date.now()}`;
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropPostgres(adminUrl: string, url: string) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  await client.end();
}

/**
 * `npm run bench -- import [--rows 560000,140000] [--pg URL] [--skip-embedded]`
 * Wall time includes process start, hashing the file, migrations and the import itself.
 */
export async function benchImport(args: string[]) {
  const option = (name: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const sizes = (option("--rows") ?? "140000,560000").split(",").map(Number);
  const adminUrl =
    option("--pg") ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-bench-import-"));
  const results: Measurement[] = [];
  try {
    for (const rows of sizes) {
      const file = path.join(dir, `dbpedia-like-${rows}.csv`);
      writeCsv(file, rows);
      const pgUrl = await freshPostgres(adminUrl);
      try {
        results.push(measure("PostgreSQL", file, rows, { DATABASE_URL: pgUrl }));
        // Same import with V8's heap capped: shows what the import needs, not what a lazy GC keeps.
        results.push(
          measure("PostgreSQL, heap capped at 96 MB", file, rows, { DATABASE_URL: pgUrl }, [
            "--max-old-space-size=96",
          ]),
        );
      } finally {
        await dropPostgres(adminUrl, pgUrl);
      }
      if (!args.includes("--skip-embedded")) {
        results.push(
          measure("embedded PostgreSQL", file, rows, {
            DATABASE_URL: "",
            MEMICL_DATA_DIR: path.join(dir, `data-${rows}`),
          }),
        );
      }
      fs.rmSync(file);
      process.stderr.write(`done: ${rows} rows\n`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}\n`,
  );
  console.log(
    "| backend | rows | file MB | import s | import rows/s | process wall s | wall rows/s | peak RSS MB |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of results) {
    console.log(
      `| ${r.backend} | ${r.rows.toLocaleString("en")} | ${r.megabytes.toFixed(0)} | ${r.importSeconds.toFixed(1)} | ${Math.round(r.importRowsPerSecond).toLocaleString("en")} | ${r.seconds.toFixed(1)} | ${Math.round(r.rowsPerSecond).toLocaleString("en")} | ${r.peakRssMb.toFixed(0)} |`,
    );
  }
}
