import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GROUP_SUFFIX, groupMembers } from "../../support/groups";

const ROOT = path.resolve(__dirname, "../../..");
/** The folders of test/ whose subfolders are topics (jest.suite.config.js). */
const GROUPED = ["e2e", "unit"].map((root) => path.join(ROOT, "test", root));
const suite = require(path.join(ROOT, "jest.suite.config.js")) as {
  testMatch: string[];
  testPathIgnorePatterns: string[];
};

/** Every test file under test/ that jest.config.js runs (`npx jest`), the trained-model tests aside. */
function testFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "model" ? [] : testFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

const ignoredBySuite = (file: string) =>
  suite.testPathIgnorePatterns.some((pattern) => new RegExp(pattern.replace("<rootDir>", ROOT)).test(file));

describe("the suite's groups (npm test, jest.suite.config.js)", () => {
  // jest's snapshots folder holds no test file.
  const folders = GROUPED.flatMap((root) =>
    fs
      .readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "__snapshots__")
      .map((entry) => path.join(root, entry.name)),
  );
  const groups = GROUPED.flatMap((root) =>
    fs
      .readdirSync(root)
      .filter((name) => name.endsWith(GROUP_SUFFIX))
      .map((name) => path.join(root, name)),
  );

  it("has one group file per topic folder of test/e2e and test/unit, and a folder of test files per group file", () => {
    expect(groups.map((file) => file.slice(0, -GROUP_SUFFIX.length)).sort()).toEqual([...folders].sort());
    expect(groups.length).toBeGreaterThan(10);
    for (const group of groups) expect(groupMembers(group).length).toBeGreaterThan(0);
  });

  it("runs every test file once: a grouped one through its group only, any other one as itself", () => {
    const grouped = new Set(groups.flatMap((group) => groupMembers(group)));
    const files = testFiles(path.join(ROOT, "test"));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files)
      expect({ file: path.relative(ROOT, file), ignored: ignoredBySuite(file) }).toEqual({
        file: path.relative(ROOT, file),
        ignored: grouped.has(file),
      });
    for (const group of groups) {
      const relative = path.relative(ROOT, path.dirname(group));
      expect(suite.testMatch).toContain(`<rootDir>/${relative}/*${GROUP_SUFFIX}`);
      expect(ignoredBySuite(group)).toBe(false);
    }
  });

  it("refuses a group file named otherwise, and an empty group", () => {
    expect(() => groupMembers(path.join(GROUPED[0], "api.test.ts"))).toThrow(
      /is not named <topic>\.group\.ts/,
    );
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-group-"));
    fs.mkdirSync(path.join(empty, "none"));
    expect(() => groupMembers(path.join(empty, "none.group.ts"))).toThrow(/has no test files/);
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
