#!/usr/bin/env node
// The libraries' production paths unless told otherwise: GraphQL's development mode checks every type test for
// a second copy of the module (about 5% of a server's CPU under load), and Express's keeps no view cache.
process.env.NODE_ENV ??= "production";
require("reflect-metadata");
require("../dist/src/cli/main.js").main(process.argv);
