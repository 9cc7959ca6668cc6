import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GROUP_SUFFIX, groupMembers } from "../support/groups";

const ROOT = path.resolve(__dirname, "../..");
const E2E = path.join(ROOT, "test/e2e");
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
  const folders = fs
    .readdirSync(E2E, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const groups = fs.readdirSync(E2E).filter((name) => name.endsWith(GROUP_SUFFIX));

  it("has one group file per folder of test/e2e, and a folder of test files per group file", () => {
    expect(groups.map((name) => name.slice(0, -GROUP_SUFFIX.length)).sort()).toEqual([...folders].sort());
    for (const group of groups) expect(groupMembers(path.join(E2E, group)).length).toBeGreaterThan(0);
  });

  it("runs every test file once: a grouped one through its group only, any other one as itself", () => {
    const grouped = new Set(groups.flatMap((group) => groupMembers(path.join(E2E, group))));
    const files = testFiles(path.join(ROOT, "test"));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files)
      expect({ file: path.relative(ROOT, file), ignored: ignoredBySuite(file) }).toEqual({
        file: path.relative(ROOT, file),
        ignored: grouped.has(file),
      });
    expect(suite.testMatch).toContain("<rootDir>/test/e2e/*.group.ts");
    for (const group of groups) expect(ignoredBySuite(path.join(E2E, group))).toBe(false);
  });

  it("refuses a group file named otherwise, and an empty group", () => {
    expect(() => groupMembers(path.join(E2E, "api.test.ts"))).toThrow(/is not named <topic>\.group\.ts/);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-group-"));
    fs.mkdirSync(path.join(empty, "none"));
    expect(() => groupMembers(path.join(empty, "none.group.ts"))).toThrow(/has no test files/);
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
