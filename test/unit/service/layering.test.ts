import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The house's shape (docs/ARCHITECTURE.md): every top-level folder of src/ on one floor, lowest first. A folder
 * imports only folders on floors below its own, so no two folders import each other and a new import that runs
 * the wrong way fails here. Folders on one floor do not import each other.
 */
const SRC = path.resolve(__dirname, "../../../src");

const FLOORS: string[][] = [
  ["common", "study", "statistics", "logprob"],
  ["prompt", "llm"],
  ["judge", "config", "quiz", "sampling"],
  ["guessing"],
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
  "sampling",
  "guessing",
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

/** The files each file of src/ imports (relative imports, `import type` included), by absolute path. */
function fileGraph(): Map<string, string[]> {
  const all = files(SRC);
  const known = new Set(all);
  return new Map(
    all.map((file) => [
      file,
      importsOf(file)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => {
          const base = path.resolve(path.dirname(file), specifier);
          return [`${base}.ts`, path.join(base, "index.ts"), base].find((candidate) => known.has(candidate));
        })
        .filter((target): target is string => target !== undefined),
    ]),
  );
}

/** The import circles of a graph: its strongly connected components of more than one file (Tarjan's). */
function circlesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const circle: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        circle.push(member);
      } while (member !== node);
      if (circle.length > 1) circles.push(circle.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

describe("files that import in one direction", () => {
  it("has no import circle anywhere in src/", () => {
    const circles = circlesOf(fileGraph()).map((circle) =>
      circle.map((file) => path.relative(SRC, file)).join(" -> "),
    );
    expect(circles).toEqual([]);
  });

  // The report's layers: row types (rows/, GraphQL's classes of what analyses return), the pure analyses (which
  // read row types, or own plain ones), and the tables (which compute with the analyses and render the rows).
  it("has the report's analyses read row types, never tables (rows <- analyses <- tables)", () => {
    const graph = fileGraph();
    const under = (file: string, folder: string) => path.relative(SRC, file).startsWith(folder);
    const wrong = [...graph.entries()].flatMap(([file, imports]) =>
      imports
        .filter(
          (target) =>
            (under(file, "report/analyses/") && under(target, "report/tables/")) ||
            (under(file, "report/rows/") &&
              under(target, "report/tables/") &&
              !target.endsWith("tables/scope.ts")),
        )
        .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
    );
    expect(wrong).toEqual([]);
  });

  it("finds a circle when there is one (the check itself)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
    ]);
    expect(circlesOf(graph)).toEqual([["a", "b", "c"]]);
    expect(
      circlesOf(
        new Map([
          ["a", ["b"]],
          ["b", []],
        ]),
      ),
    ).toEqual([]);
  });
});
