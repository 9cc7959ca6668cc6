// Starts the slow test files first, so that the workers finish together instead of one running a long file
// alone at the end. Jest's own order uses durations cached by earlier runs on the same machine; a fresh clone
// (CI) has none and falls back to file size, which puts the slowest files (the README walkthrough, the CLI)
// late. The same order everywhere: these seconds, measured on a 2-core machine with PostgreSQL beside the
// embedded database (both databases, `TEST_DATABASE_URL=... npx jest --json`), then the rest by size.
const fs = require("node:fs");
const Sequencer = require("@jest/test-sequencer").default;

const EXPECTED_SECONDS = {
  "e2e/runs.e2e.test.ts": 60,
  "e2e/readme.e2e.test.ts": 57,
  "e2e/cdd.e2e.test.ts": 53,
  "e2e/runs-workers.e2e.test.ts": 42,
  "e2e/read-only-commands.e2e.test.ts": 41,
  "e2e/rate-limits.e2e.test.ts": 34,
  "e2e/null-suite.e2e.test.ts": 34,
  "e2e/study-design-shared-data.e2e.test.ts": 30,
  "e2e/cli.e2e.test.ts": 29,
  "e2e/cli-runs.e2e.test.ts": 29,
  "e2e/judge-cli.e2e.test.ts": 29,
  "e2e/batch.e2e.test.ts": 28,
  "e2e/methods-shared-data.e2e.test.ts": 27,
  "browser/dashboard.browser.test.ts": 26,
  "e2e/subscriptions.e2e.test.ts": 24,
  "e2e/pgbouncer.e2e.test.ts": 24,
  "e2e/cli-data-folder.e2e.test.ts": 23,
  "e2e/logprob-servers.e2e.test.ts": 22,
  "e2e/run-management.e2e.test.ts": 21,
  "e2e/stop.e2e.test.ts": 21,
  "e2e/quiz.e2e.test.ts": 20,
  "unit/floor-bound.test.ts": 20,
  "e2e/budget-usage.e2e.test.ts": 20,
  "e2e/lifecycle.e2e.test.ts": 19,
  "e2e/database-outage.e2e.test.ts": 19,
  "unit/cdd.test.ts": 19,
  "e2e/results.e2e.test.ts": 18,
  "e2e/judging.e2e.test.ts": 18,
  "e2e/budgets.e2e.test.ts": 18,
  "browser/contamination.browser.test.ts": 17,
  "unit/simulation.test.ts": 15,
  "e2e/auth.e2e.test.ts": 15,
  "unit/meaning-judge.test.ts": 15,
  "e2e/comparison.e2e.test.ts": 14,
  "e2e/embedded-restart.e2e.test.ts": 14,
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
