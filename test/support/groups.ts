import fs from "node:fs";
import path from "node:path";

/**
 * How a group file is named: `test/<e2e or unit>/<topic>.group.ts` runs the test files of the folder beside it,
 * `test/<e2e or unit>/<topic>/`.
 */
export const GROUP_SUFFIX = ".group.ts";

/** The test files a group file runs: those of the folder named like it, in name order. */
export function groupMembers(groupFile: string): string[] {
  if (!groupFile.endsWith(GROUP_SUFFIX)) throw new Error(`${groupFile} is not named <topic>${GROUP_SUFFIX}`);
  const folder = groupFile.slice(0, -GROUP_SUFFIX.length);
  const members = fs
    .readdirSync(folder)
    .filter((name) => name.endsWith(".test.ts"))
    .sort()
    .map((name) => path.join(folder, name));
  if (members.length === 0) throw new Error(`the group ${groupFile} has no test files in ${folder}`);
  return members;
}

/**
 * Runs a folder's test files in this one jest file (`npm test`, jest.suite.config.js): one module registry for all
 * of them, so the modules they share load once per group instead of once per file (the server's, about 2 s of CPU
 * for each end-to-end file; the measurements are in docs/BENCHMARKS.md). Each file runs inside a describe of its own name, so its hooks stay
 * its own. `npx jest <file>` (jest.config.js) still runs any one of them alone.
 */
export function runGroup(groupFile: string): void {
  for (const member of groupMembers(groupFile))
    describe(path.basename(member, ".test.ts"), () => {
      require(member);
    });
}
