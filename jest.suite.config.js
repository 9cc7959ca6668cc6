/**
 * `npm test`: the whole suite, with each folder of test/e2e/ run as one jest file (its `<topic>.group.ts`, see
 * test/support/groups.ts) so that the server's modules load once per topic rather than once per test file.
 * Everything else is jest.config.js, which `npx jest <file or pattern>` uses to run any test file on its own.
 */
const base = require("./jest.config.js");

module.exports = {
  ...base,
  testMatch: [...base.testMatch, "<rootDir>/test/e2e/*.group.ts"],
  // The files of a topic folder run through its group file.
  testPathIgnorePatterns: [...base.testPathIgnorePatterns, "<rootDir>/test/e2e/[^/]+/"],
};
