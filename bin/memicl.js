#!/usr/bin/env node
require("reflect-metadata");
require("../dist/src/cli/main.js").main(process.argv);
