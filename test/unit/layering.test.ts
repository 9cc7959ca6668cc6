import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The house's shape (docs/ARCHITECTURE.md): every top-level folder of src/ on one floor, lowest first. A folder
 * imports only folders on floors below its own, so no two folders import each other and a new import that runs
 * the wrong way fails here. Folders on one floor do not import each other.
 */
const SRC = path.resolve(__dirname, "../../src");

const FLOORS: string[][] = [
  ["common", "study", "statistics", "logprob"],
  ["prompt", "llm"],
  ["judge", "config", "quiz"],
  ["logging", "observability"],
  ["auth", "queue"],
  ["graphql"],
  ["dataset", "experiment", "worker"],
  ["sample"],
  ["template", "option-set"],
  ["run"],
  ["budget"],
  ["completion", "report"],
  ["judgment", "deletion", "batch"],
  ["app"],
  ["db"],
  ["api"],
  ["cli"],
];

/** Pure study logic: loads no database, GraphQL, queue or provider package. */
const PURE = [
  "study",
  "statistics",
  "logprob",
  "judge",
  "prompt",
  "quiz",
  "sample/design",
  "report/analyses",
];
const PURE_FILES = ["budget/budget.ts", "llm/batch-api.ts"];
const IMPURE_PACKAGES = ["typeorm", "type-graphql", "pg", "pg-boss", "openai", "graphql"];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The top folder under src/ an import lands in, or a package name (for a file at `file`). */
function targetOf(file: string, specifier: string): { folder?: string; packageName?: string } {
  if (!specifier.startsWith(".")) {
    const parts = specifier.split("/");
    return { packageName: specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0] };
  }
  const resolved = path.relative(SRC, path.resolve(path.dirname(file), specifier));
  return resolved.startsWith("..") ? {} : { folder: resolved.split(path.sep)[0] };
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  // `import type` is erased when compiled, so it loads nothing; it still counts as a dependency between folders.
  return [...text.matchAll(/(?:from|require\(|import\()\s*["']([^"']+)["']/g)].map((match) => match[1]);
}

function floorOf(folder: string): number {
  return FLOORS.findIndex((floor) => floor.includes(folder));
}

describe("folders that import only downwards", () => {
  it("declares every folder of src/ on a floor", () => {
    const folders = fs
      .readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => floorOf(folder) < 0)).toEqual([]);
  });

  it.each(FLOORS.flat())("%s imports only folders below it", (folder) => {
    const wrong: string[] = [];
    for (const file of files(path.join(SRC, folder))) {
      for (const specifier of importsOf(file)) {
        const { folder: target } = targetOf(file, specifier);
        if (!target || target === folder || target.endsWith(".ts")) continue;
        if (floorOf(target) < 0 || floorOf(target) >= floorOf(folder))
          wrong.push(`${path.relative(SRC, file)} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each([...PURE, ...PURE_FILES])("%s imports no database, GraphQL, queue or provider package", (place) => {
    const full = path.join(SRC, place);
    const list = place.endsWith(".ts") ? [full] : files(full);
    const wrong: string[] = [];
    for (const file of list)
      for (const specifier of importsOf(file)) {
        const { packageName } = targetOf(file, specifier);
        if (packageName && IMPURE_PACKAGES.includes(packageName))
          wrong.push(`${path.relative(SRC, file)} -> ${packageName}`);
      }
    expect(wrong).toEqual([]);
  });

  it("loads the pure study logic without TypeORM or TypeGraphQL (require.cache)", () => {
    const modules = [
      "study/settings",
      "study/grid",
      "statistics/tests",
      "judge/heuristic-judge",
      "judge/answer-extraction",
      "prompt/rendering",
      "sample/design/design-sample",
      "report/analyses/index",
    ];
    // The built modules (`npm test` builds first), in a fresh process, so nothing Jest or other tests loaded counts.
    const dist = path.resolve(SRC, "../dist/src");
    expect(fs.existsSync(path.join(dist, "study/settings.js"))).toBe(true);
    const script = `
      ${modules.map((name) => `require(${JSON.stringify(path.join(dist, name))});`).join("\n")}
      const loaded = Object.keys(require.cache).filter((file) => /node_modules[\\\\/](typeorm|type-graphql|pg-boss|openai|pg)[\\\\/]/.test(file));
      process.stdout.write(JSON.stringify(loaded));`;
    const result = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", cwd: SRC });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual([]);
  });

  it("sees a wrong import when there is one (the check itself)", () => {
    expect(targetOf(path.join(SRC, "judge", "x.ts"), "../run/run.entity")).toEqual({ folder: "run" });
    expect(targetOf(path.join(SRC, "sample", "design", "x.ts"), "../sample.entity")).toEqual({
      folder: "sample",
    });
    expect(targetOf(path.join(SRC, "judge", "x.ts"), "typeorm")).toEqual({ packageName: "typeorm" });
    expect(floorOf("judge")).toBeLessThan(floorOf("run"));
  });
});
