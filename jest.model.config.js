/**
 * `npm run test:model`: the tests on the shared trained model (test/model/), apart from `npm test` because their
 * PyTorch scorer keeps a core busy for minutes; CI runs them after the suite, with nothing beside them. Everything
 * else (the embedded server of the global setup, the timeouts, the transform) is the suite's own configuration.
 */
const base = require("./jest.config.js");

module.exports = {
  ...base,
  testMatch: ["<rootDir>/test/model/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/"],
};
