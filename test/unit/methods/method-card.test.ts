import fs from "node:fs";
import path from "node:path";
import { EXTRACTION_RULES } from "../../../src/judge/answer-extraction";
import { HEURISTIC_JUDGE_VERSION, HEURISTIC_JUDGE_VERSIONS } from "../../../src/judge/heuristic-judge";
import { NO_MEMORY_FLOOR_VERSION } from "../../../src/judge/no-memory";
import { LLM_JUDGE_VERSIONS } from "../../../src/judge/time-travel-judge";
import { CDD_MIN_INSTANCES, CDD_TEST_ALPHA } from "../../../src/report/analyses/cdd";
import { LOGPROB_ALPHA, LOGPROB_MIN_INSTANCES } from "../../../src/report/analyses/logprob";
import { NO_MEMORY_ALLOWANCE, VERDICT_ALPHA } from "../../../src/report/analyses/verdict";
import { METHOD_FIGURES_BEGIN, METHOD_FIGURES_END, methodFigures } from "../../../src/report/method-figures";
import { SAMPLE_ALGORITHM_VERSION } from "../../../src/sample/design/design-sample";
import { CDD_DEFAULTS } from "../../../src/sampling/cdd";
import { NGRAM_DEFAULTS } from "../../../src/sampling/ngram";

/**
 * docs/METHOD.md, the method card a lab cites, against the code: its generated block (versions, thresholds, the
 * instructions word for word, the verdict's power) is the code's, and its prose names no version or threshold the
 * code does not use. MEMICL_WRITE_METHOD_CARD=1 rewrites the generated block (then `npx biome format --write
 * docs/METHOD.md` pads its tables).
 */
describe("docs/METHOD.md against the code", () => {
  const file = path.resolve(__dirname, "../../../docs/METHOD.md");
  let card = fs.readFileSync(file, "utf8");
  const begin = card.indexOf(METHOD_FIGURES_BEGIN);
  const end = card.indexOf(METHOD_FIGURES_END);
  if (process.env.MEMICL_WRITE_METHOD_CARD && begin >= 0 && end > begin) {
    card = card.slice(0, begin) + methodFigures() + card.slice(end + METHOD_FIGURES_END.length);
    fs.writeFileSync(file, card);
  }
  const prose = begin >= 0 && end > begin ? card.slice(0, begin) + card.slice(end) : card;
  const row = (name: string) => card.split("\n").find((line) => line.startsWith(`| ${name}`)) ?? "";

  it("holds the block generated from the code (versions, thresholds, instructions, power)", () => {
    expect(begin).toBeGreaterThanOrEqual(0);
    // The formatter pads a table's cells: compare cell by cell.
    const cells = (text: string) =>
      text
        .split("\n")
        .map((line) =>
          line.startsWith("|")
            ? line
                .split("|")
                .map((cell) => (/^\s*-+\s*$/.test(cell) ? "---" : cell.trim()))
                .join("|")
            : line,
        )
        .join("\n");
    expect(cells(card.slice(begin, end + METHOD_FIGURES_END.length))).toBe(cells(methodFigures()));
  });

  it("names the default heuristic judge and the floor's rule", () => {
    const judges = [...row("The default judge").matchAll(/`(heuristic-\d+)`/g)].map((match) => match[1]);
    expect(judges).toEqual([HEURISTIC_JUDGE_VERSION]);
    const floors = [...row("The no-memory floor").matchAll(/rule `(floor-\d+)`/g)].map((match) => match[1]);
    expect(floors).toEqual([NO_MEMORY_FLOOR_VERSION]);
  });

  it("names no version the code does not use", () => {
    const found = (pattern: RegExp) => [...new Set([...prose.matchAll(pattern)].map((match) => match[0]))];
    const known = (values: readonly string[]) => (value: string) => values.includes(value);
    expect(found(/\bheuristic-\d+\b/g).filter((v) => !known(HEURISTIC_JUDGE_VERSIONS)(v))).toEqual([]);
    // The floor has one rule: the current one.
    expect(found(/\bfloor-\d+\b/g)).toEqual([NO_MEMORY_FLOOR_VERSION]);
    expect(found(/\blayout-\d+\b/g).filter((v) => !known(EXTRACTION_RULES)(v))).toEqual([]);
    expect(found(/\btime-travel-\d+\b/g).filter((v) => !known(LLM_JUDGE_VERSIONS)(v))).toEqual([]);
    const designs = [...prose.matchAll(/design version (\d+) \(the default/g)].map((match) =>
      Number(match[1]),
    );
    expect(designs.every((version) => version === SAMPLE_ALGORITHM_VERSION)).toBe(true);
  });

  it("states the thresholds the code uses", () => {
    const allowances = [
      ...prose.matchAll(/(\d+(?:\.\d+)?)% (?:no-memory )?allowance|allowance of (\d+(?:\.\d+)?)%/g),
    ].map((match) => Number(match[1] ?? match[2]));
    expect(allowances.length).toBeGreaterThan(0);
    expect(allowances.every((value) => value === NO_MEMORY_ALLOWANCE * 100)).toBe(true);
    const alphas = [...prose.matchAll(/alpha = (0\.\d+)/g)].map((match) => Number(match[1]));
    expect(alphas.length).toBeGreaterThan(0);
    expect(alphas.every((value) => value === VERDICT_ALPHA && value === LOGPROB_ALPHA)).toBe(true);
    const fewest = [...prose.matchAll(/fewer than (\d+) instances on either side/g)].map((match) =>
      Number(match[1]),
    );
    expect(fewest).toEqual([LOGPROB_MIN_INSTANCES]);
  });

  it("states n-gram coverage's defaults as the code has them", () => {
    expect(prose).toContain(
      `ngramCoverage: { samples: ${NGRAM_DEFAULTS.samples}, temperature: ${NGRAM_DEFAULTS.temperature},\ntopP: ${NGRAM_DEFAULTS.topP}, n: ${NGRAM_DEFAULTS.n} }`,
    );
  });

  it("states CDD's defaults, level and minimum as the code has them", () => {
    expect(prose).toContain(
      `cdd: { samples: ${CDD_DEFAULTS.samples}, temperature: ${CDD_DEFAULTS.temperature},\nalpha: ${CDD_DEFAULTS.alpha}, xi: ${CDD_DEFAULTS.xi} }`,
    );
    expect(prose).toContain(
      `CONTAMINATED under\nalpha ${CDD_TEST_ALPHA}, CANNOT_TELL with fewer than ${CDD_MIN_INSTANCES} compared`,
    );
  });
});
