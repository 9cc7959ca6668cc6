/** Jest runs TypeScript through swc; every test file's databases live on one embedded PostgreSQL server (global setup). */
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/test/**/*.test.ts"],
  testTimeout: 60_000,
  setupFiles: ["reflect-metadata", "<rootDir>/test/support/production-mode.ts"],
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  testSequencer: "<rootDir>/test/support/sequencer.js",
  transform: {
    "^.+\\.(t|j|mj|cj)s$": [
      "@swc/jest",
      {
        jsc: {
          parser: { syntax: "typescript", decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: "es2022",
        },
        module: { type: "commonjs" },
      },
    ],
  },
};
