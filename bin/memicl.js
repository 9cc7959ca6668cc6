#!/usr/bin/env -S node --max-semi-space-size=64
// Node's flags, on the line above (npm start and docker/Dockerfile give node the same): young-generation semi-spaces
// of up to 64 MB instead of 16 MB. A run allocates a request body and a prompt per call; with the default, garbage
// collection took 15% of `memicl serve`'s busy time in the grid benchmark, half that with 64 MB
// (docs/BENCHMARKS.md). The space grows only under such load: a short command's memory is unchanged.
// The libraries' production paths unless told otherwise: GraphQL's development mode checks every type test for
// a second copy of the module (about 5% of a server's CPU under load), and Express's keeps no view cache.
process.env.NODE_ENV ??= "production";
require("reflect-metadata");
require("../dist/src/cli/main.js").main(process.argv);
