// `npm run bench -- <name>`: runs one benchmark and prints a Markdown table for docs/BENCHMARKS.md.
import "reflect-metadata";
import { benchBatch } from "./batch.bench";
import { benchCli } from "./cli.bench";
import { benchEmbedded } from "./embedded.bench";
import { benchEngine } from "./engine.bench";
import { benchGrid } from "./grid.bench";
import { benchImport } from "./import.bench";
import { benchLimits } from "./limits.bench";
import { benchLongTexts } from "./long-texts.bench";
import { benchNgram } from "./ngram.bench";
import { benchResults } from "./results.bench";
import { benchScale } from "./scale.bench";
import { benchStartup } from "./startup.bench";

const BENCHMARKS: Record<string, (args: string[]) => Promise<void>> = {
  batch: benchBatch,
  cli: benchCli,
  embedded: benchEmbedded,
  engine: benchEngine,
  grid: benchGrid,
  import: benchImport,
  limits: benchLimits,
  "long-texts": benchLongTexts,
  ngram: benchNgram,
  results: benchResults,
  scale: benchScale,
  startup: benchStartup,
};

async function main() {
  const [name, ...args] = process.argv.slice(2);
  const run = name ? BENCHMARKS[name] : undefined;
  if (!run) {
    process.stderr.write(`usage: npm run bench -- <${Object.keys(BENCHMARKS).join("|")}> [options]\n`);
    process.exit(2);
  }
  await run(args);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
