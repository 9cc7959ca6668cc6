/** Jest runs TypeScript through swc; the allow-list transforms the ESM-only packages (pg-boss) and PGlite's dynamic imports. */
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/test/**/*.test.ts"],
  testTimeout: 60_000,
  setupFiles: ["reflect-metadata"],
  transformIgnorePatterns: [
    "/node_modules/(?!(pg-boss|serialize-error|non-error|@electric-sql/pglite|@electric-sql/pglite-socket)/)",
  ],
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
