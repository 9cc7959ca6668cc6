import fs from "node:fs";
import path from "node:path";
import { HEURISTIC_JUDGE_VERSION } from "../../src/judge/heuristic-judge";
import { NO_MEMORY_FLOOR_VERSION } from "../../src/judge/no-memory";

/** docs/METHOD.md, the method card a lab cites, names the versions new runs record, and no other as current. */
describe("docs/METHOD.md against the code", () => {
  const card = fs.readFileSync(path.resolve(__dirname, "../../docs/METHOD.md"), "utf8");
  const row = (name: string) => card.split("\n").find((line) => line.startsWith(`| ${name}`)) ?? "";

  it("names the default heuristic judge", () => {
    const judges = [...row("The default judge").matchAll(/`(heuristic-\d+)`/g)].map((match) => match[1]);
    expect(judges).toEqual([HEURISTIC_JUDGE_VERSION]);
  });

  it("names the no-memory floor's rule", () => {
    const floors = [...row("The no-memory floor").matchAll(/rule `(floor-\d+)`/g)].map((match) => match[1]);
    expect(floors).toEqual([NO_MEMORY_FLOOR_VERSION]);
  });
});
