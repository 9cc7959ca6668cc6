import fs from "node:fs";
import path from "node:path";

/**
 * The folders declared lower in the tree, and what each may import: the pure study logic (statistics, the judges,
 * the sampling design) stays apart from I/O. A new import that runs the wrong way fails here, so the shape holds
 * as code moves (docs/ARCHITECTURE.md; issue 22 plans to declare more).
 */
const SRC = path.resolve(__dirname, "../../src");

const DECLARED: { folder: string; mayImport: string[]; noPackages: string[] }[] = [
  { folder: "statistics", mayImport: [], noPackages: ["typeorm", "type-graphql", "pg", "pg-boss", "openai"] },
  { folder: "common", mayImport: [], noPackages: ["pg-boss", "openai"] },
  {
    folder: "study",
    mayImport: [],
    noPackages: ["typeorm", "type-graphql", "pg", "pg-boss", "openai"],
  },
  // Types only, from the template folder (ChatMessage, TemplateBody).
  {
    folder: "judge",
    mayImport: ["common", "study", "template"],
    noPackages: ["typeorm", "type-graphql", "pg", "pg-boss", "openai"],
  },
  {
    folder: "sample/design",
    mayImport: ["common", "study"],
    noPackages: ["typeorm", "type-graphql", "pg", "pg-boss", "openai"],
  },
];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** The top folder under src/ an import lands in (`sample/design` for the design), or a package name. */
function targetOf(file: string, specifier: string): { folder?: string; packageName?: string } {
  if (!specifier.startsWith(".")) return { packageName: specifier.split("/")[0] };
  const resolved = path.relative(SRC, path.resolve(path.dirname(file), specifier));
  const [top, second] = resolved.split(path.sep);
  return { folder: top === "sample" && second === "design" ? "sample/design" : top };
}

describe("folders that import only downwards", () => {
  it.each(DECLARED)("$folder imports only what it may", ({ folder, mayImport, noPackages }) => {
    const wrong: string[] = [];
    for (const file of files(path.join(SRC, folder))) {
      const text = fs.readFileSync(file, "utf8");
      for (const match of text.matchAll(/(?:from|require\()\s*["']([^"']+)["']/g)) {
        const { folder: target, packageName } = targetOf(file, match[1]);
        const relative = path.relative(SRC, file);
        if (target && target !== folder && !mayImport.includes(target))
          wrong.push(`${relative} -> ${target}`);
        if (packageName && noPackages.includes(packageName))
          wrong.push(`${relative} -> package ${packageName}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("sees a wrong import when there is one (the check itself)", () => {
    expect(targetOf(path.join(SRC, "judge", "x.ts"), "../run/run.entity")).toEqual({ folder: "run" });
    expect(targetOf(path.join(SRC, "sample", "design", "x.ts"), "../sample.entity")).toEqual({
      folder: "sample",
    });
    expect(targetOf(path.join(SRC, "judge", "x.ts"), "typeorm")).toEqual({ packageName: "typeorm" });
  });
});
