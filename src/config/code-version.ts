import { readFileSync } from "node:fs";
import path from "node:path";

/** The package version every run records (from package.json, next to src/ in source and dist/ when built). */
function readVersion(): string {
  for (const candidate of ["../../package.json", "../../../package.json"]) {
    try {
      const json = JSON.parse(readFileSync(path.resolve(__dirname, candidate), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (json.name === "memicl" && json.version) return `memicl@${json.version}`;
    } catch {
      // try the next location
    }
  }
  return "memicl@unknown";
}

export const CODE_VERSION = readVersion();
