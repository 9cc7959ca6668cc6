/**
 * `npm test`: the whole suite, with each folder of test/e2e/ and test/unit/ run as one jest file (its
 * `<topic>.group.ts`, see test/support/groups.ts) so that the modules a topic uses load once per topic rather than
 * once per test file.
 * Everything else is jest.config.js, which `npx jest <file or pattern>` uses to run any test file on its own.
 */
const base = require("./jest.config.js");

/** The folders of test/ whose subfolders are topics, each run by its group file. */
const GROUPED = ["e2e", "unit"];

module.exports = {
  ...base,
  testMatch: [...base.testMatch, ...GROUPED.map((root) => `<rootDir>/test/${root}/*.group.ts`)],
  // The files of a topic folder run through its group file.
  testPathIgnorePatterns: [
    ...base.testPathIgnorePatterns,
    ...GROUPED.map((root) => `<rootDir>/test/${root}/[^/]+/`),
  ],
};
