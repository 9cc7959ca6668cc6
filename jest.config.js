/** Jest runs TypeScript through swc; every test file's databases live on one embedded PostgreSQL server (global setup). */
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/test/**/*.test.ts"],
  // The tests on the shared trained model (test/model/) run on their own: `npm run test:model` (jest.model.config.js).
  // Their PyTorch scorer takes a core for two minutes; beside the suite it made `npm test` a third slower.
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/model/"],
  testTimeout: 60_000,
  // A worker holding more than this after a file is replaced: the heaps grew to about 1 GB over a run (each file's
  // modules are its own), and the statistics files at the end ran slower on them. Paired, two rounds: 230 s vs
  // 236 s and 244 s vs 254 s for the suite (docs/BENCHMARKS.md).
  workerIdleMemoryLimit: "512MB",
  setupFiles: ["reflect-metadata", "<rootDir>/test/support/production-mode.ts"],
  // Each timeout scaled by the machine's load (test/support/patience.ts).
  setupFilesAfterEnv: ["<rootDir>/test/support/patient-timeouts.ts"],
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  testSequencer: "<rootDir>/test/support/sequencer.js",
  // Each test file's modules run in a vm context, where reading a global (Math.max, Array.isArray) goes through
  // an interceptor: about 400 ns instead of 6 ns (nodejs/node#31658). Jest passes these to every module as
  // parameters instead, so the app's code runs at its native speed in tests (the suite's CPU: docs/BENCHMARKS.md).
  // Only ECMAScript's own objects, which jest never fakes (Date and the timers are faked by fake timers), and none
  // that a dependency declares itself at its top level, which would then fail to load: JSON (graphql-scalars),
  // Buffer (express, ws, undici), process (commander), setTimeout (pg-boss).
  sandboxInjectedGlobals: [
    "Math",
    "Object",
    "Array",
    "Number",
    "String",
    "Boolean",
    "Symbol",
    "BigInt",
    "Function",
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "Promise",
    "Reflect",
    "Error",
    "TypeError",
    "RangeError",
    "RegExp",
    "Intl",
    "ArrayBuffer",
    "DataView",
    "Uint8Array",
    "Uint16Array",
    "Uint32Array",
    "Int8Array",
    "Int16Array",
    "Int32Array",
    "Float32Array",
    "Float64Array",
    "parseInt",
    "parseFloat",
    "isNaN",
    "isFinite",
    "encodeURIComponent",
    "decodeURIComponent",
  ],
  // The build compiles with the same options (scripts/swc-options.js).
  transform: { "^.+\\.(t|j|mj|cj)s$": ["@swc/jest", require("./scripts/swc-options.js")] },
};
