#!/usr/bin/env -S node --max-semi-space-size=64
// Node's flags, on the line above (npm start and docker/Dockerfile give node the same): young-generation semi-spaces
// of up to 64 MB instead of 16 MB. A run allocates a request body and a prompt per call; with the default, garbage
// collection took 15% of `memicl serve`'s busy time in the grid benchmark, half that with 64 MB
// (docs/BENCHMARKS.md). The space grows only under such load: a short command's memory is unchanged.
// The libraries' production paths unless told otherwise: GraphQL's development mode checks every type test for
// a second copy of the module (about 5% of a server's CPU under load), and Express's keeps no view cache.
process.env.NODE_ENV ??= "production";
const fs = require("node:fs");
const path = require("node:path");
const entry = path.join(__dirname, "../dist/src/cli/main.js");
// A checkout after `npm install` alone has no dist/ yet: build it once (what `npm start` and `npm test` do first).
if (!fs.existsSync(entry)) {
  const build = path.join(__dirname, "../scripts/build.js");
  if (!fs.existsSync(build)) {
    process.stderr.write(
      "memicl: dist/ is missing and there is nothing to build it from; reinstall memicl\n",
    );
    process.exit(1);
  }
  process.stderr.write("memicl: not built yet; building once (npm run build does the same)...\n");
  const built = require("node:child_process").spawnSync(process.execPath, [build], {
    stdio: ["ignore", 2, 2],
  });
  if (built.status !== 0 || !fs.existsSync(entry)) {
    process.stderr.write("memicl: the build failed; run `npm run build` to see why\n");
    process.exit(1);
  }
}
require("reflect-metadata");
require(entry).main(process.argv);
