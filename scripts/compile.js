#!/usr/bin/env node
// Compiles the TypeScript of src/, migrations/, bench/, chaos/ and test/support/ (the fakes and helpers the
// benchmarks and the chaos run borrow from the tests) to dist/ (same paths, .js and .js.map) with swc,
// file by file, with the options jest uses (scripts/swc-options.js): about 1 s where tsc took 6-8 s. It checks no
// types: `npm run typecheck` does (CI runs it before the suite).
const fs = require("node:fs");
const path = require("node:path");
const { transformFile } = require("@swc/core");
const options = require("./swc-options");

const root = path.join(__dirname, "..");
const FOLDERS = ["src", "migrations", "bench", "chaos", "test/support"];

function sources(folder) {
  return fs
    .readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)));
}

async function compile(file) {
  const output = path.join(root, "dist", file.replace(/\.ts$/, ".js"));
  const { code, map } = await transformFile(path.join(root, file), {
    ...options,
    sourceMaps: true,
    sourceFileName: path.relative(path.dirname(output), path.join(root, file)),
    swcrc: false,
    configFile: false,
  });
  fs.mkdirSync(path.dirname(output), { recursive: true });
  fs.writeFileSync(output, `${code}\n//# sourceMappingURL=${path.basename(output)}.map\n`);
  fs.writeFileSync(`${output}.map`, map);
}

async function main() {
  const files = FOLDERS.flatMap(sources);
  // A few at a time: swc's transforms run on its own threads.
  const queue = [...files];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let file = queue.shift(); file; file = queue.shift()) await compile(file);
    }),
  );
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
