// Starts the slow test files first, so that the workers finish together instead of one running a long file
// alone at the end. Jest's own order uses durations cached by earlier runs on the same machine; a fresh clone
// (CI) has none and falls back to file size, which puts the slowest files (the README walkthrough, the CLI)
// late, and a group file (test/support/groups.ts) is a few lines. The same order everywhere: these seconds, measured
// on a 2-core machine (`npm test -- --json`, the embedded database), then the rest by size. The unit groups' are
// their files' seconds there, less what grouping saved on a quicker machine (methods 38 s, judge 12 s there).
const fs = require("node:fs");
const Sequencer = require("@jest/test-sequencer").default;

const EXPECTED_SECONDS = {
  "e2e/readme.e2e.test.ts": 145,
  "e2e/cli.e2e.test.ts": 92,
  "e2e/api.group.ts": 86,
  "e2e/study.group.ts": 79,
  "e2e/cli-runs.e2e.test.ts": 78,
  "unit/methods.group.ts": 70,
  "e2e/cdd.e2e.test.ts": 70,
  "e2e/runs.group.ts": 65,
  "e2e/providers.group.ts": 54,
  "e2e/judging.group.ts": 52,
  "e2e/budgets.group.ts": 48,
  "e2e/run-management.e2e.test.ts": 47,
  "e2e/judge-cli.e2e.test.ts": 47,
  "e2e/read-only-commands.e2e.test.ts": 44,
  "e2e/batch.group.ts": 43,
  "browser/dashboard.browser.test.ts": 42,
  "e2e/cli-data-folder.e2e.test.ts": 40,
  "e2e/workers.group.ts": 38,
  "e2e/subscriptions.group.ts": 37,
  "unit/judge.group.ts": 30,
  "e2e/study-design-shared-data.e2e.test.ts": 29,
  "e2e/methods-shared-data.e2e.test.ts": 25,
  "browser/contamination.browser.test.ts": 24,
  "browser/compare.browser.test.ts": 23,
  "e2e/embedded-restart.e2e.test.ts": 21,
  "e2e/pgbouncer.e2e.test.ts": 20,
  "e2e/lifecycle.e2e.test.ts": 17,
};

class SlowFirst extends Sequencer {
  sort(tests) {
    const seconds = new Map(
      tests.map((test) => {
        const known = Object.entries(EXPECTED_SECONDS).find(([file]) => test.path.endsWith(`/test/${file}`));
        // Unlisted files are quick: a file's size (a kilobyte as a millisecond) only orders them among themselves.
        return [test, known ? known[1] : fs.statSync(test.path).size / 1e6];
      }),
    );
    return [...tests].sort((a, b) => seconds.get(b) - seconds.get(a));
  }
}

module.exports = SlowFirst;
