import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { BadInputError } from "../common/errors";
import {
  HARD_NEGATIVE_KINDS,
  HardNegative,
  hardNegatives,
  PairRow,
  pronounClauseCopy,
} from "../judge/hard-negatives";
import {
  HEURISTIC_JUDGE_VERSION,
  HEURISTIC_JUDGE_VERSIONS,
  HeuristicJudgeVersion,
  isHeuristicJudgeVersion,
  judgeHeuristically,
} from "../judge/heuristic-judge";
import { similarityScores } from "../judge/similarity";

/** Reads sentence pairs from a CSV or TSV with `sentence1` and `sentence2` columns (GLUE's), or `first_piece` and `reference`. */
export function readPairRows(file: string, text: string): PairRow[] {
  const tsv = /\.tsv$/i.test(file);
  let records: Record<string, string>[];
  try {
    records = parse(text, {
      columns: true,
      skip_empty_lines: true,
      bom: true,
      delimiter: tsv ? "\t" : ",",
      ...(tsv ? { quote: false, relax_column_count: true } : {}),
    });
  } catch (error) {
    throw new BadInputError(`${file}: ${(error as Error).message}`);
  }
  const first = records[0] ?? {};
  const [a, b] = "sentence1" in first ? ["sentence1", "sentence2"] : ["first_piece", "reference"];
  if (!(a in first) || !(b in first))
    throw new BadInputError(
      `${file}: needs columns sentence1 and sentence2 (or first_piece and reference); it has ${Object.keys(first).join(", ")}`,
    );
  return records
    .filter((record) => record[a]?.trim() && record[b]?.trim())
    .map((record) => ({ firstPiece: record[a].trim(), reference: record[b].trim() }));
}

const percent = (part: number, whole: number) =>
  whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;

/**
 * `memicl hard-negatives FILE... [--judge-version V] [--show N]`: builds the hard negatives of each sentence-pair
 * file (docs/JUDGING.md), judges them with the heuristic judge and prints, per kind, how many it catches (judges
 * INEXACT); for NLI files also the copy-the-pronoun-clause baseline. Files with sentence1/sentence2 columns are NLI.
 */
export async function runHardNegatives(
  files: string[],
  options: { judgeVersion?: string; show?: number },
): Promise<void> {
  const version = options.judgeVersion ?? HEURISTIC_JUDGE_VERSION;
  if (!isHeuristicJudgeVersion(version))
    throw new BadInputError(`--judge-version: one of ${HEURISTIC_JUDGE_VERSIONS.join(", ")}`);
  const out = process.stdout;
  out.write(`hard negatives judged by ${version} (caught = judged INEXACT)\n`);
  const totals = new Map<string, { caught: number; n: number }>();
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    const nli = /sentence1/.test(text.split("\n", 1)[0]);
    const rows = readPairRows(file, text);
    const pairs = hardNegatives(rows, { nli });
    const name = path.basename(path.dirname(file)) || file;
    out.write(`\n${name} (${file}): ${rows.length} rows${nli ? ", NLI" : ""}\n`);
    const missed: HardNegative[] = [];
    for (const kind of HARD_NEGATIVE_KINDS) {
      const ofKind = pairs.filter((pair) => pair.kind === kind);
      if (ofKind.length === 0) continue;
      let caught = 0;
      for (const pair of ofKind) {
        const { verdict } = judgeHeuristically(pair.reference, pair.candidate, undefined, [], {
          version: version as HeuristicJudgeVersion,
          context: { firstPiece: pair.firstPiece, nli },
        });
        if (verdict === "INEXACT") caught += 1;
        else missed.push(pair);
      }
      const total = totals.get(kind) ?? { caught: 0, n: 0 };
      totals.set(kind, { caught: total.caught + caught, n: total.n + ofKind.length });
      out.write(
        `  ${kind.padEnd(9)} caught ${String(caught).padStart(4)} of ${String(ofKind.length).padStart(4)} (${percent(caught, ofKind.length)})\n`,
      );
    }
    if (nli) {
      let memorized = 0;
      for (const row of rows) {
        const copy = pronounClauseCopy(
          row,
          (reference, candidate) => similarityScores(reference, candidate).rougeL,
        );
        const { verdict } = judgeHeuristically(row.reference, copy, undefined, [], {
          version: version as HeuristicJudgeVersion,
          context: { firstPiece: row.firstPiece, nli },
        });
        if (verdict === "INEXACT") continue;
        memorized += 1;
        if (memorized <= (options.show ?? 0))
          out.write(
            `    copy judged ${verdict}: ${JSON.stringify(row.reference)} <- ${JSON.stringify(copy)}\n`,
          );
      }
      out.write(
        `  copy-the-pronoun-clause baseline: judged memorized ${memorized} of ${rows.length} (${percent(memorized, rows.length)})\n`,
      );
    }
    for (const pair of missed.slice(0, options.show ?? 0))
      out.write(
        `    missed ${pair.kind}: ${JSON.stringify(pair.reference)} -> ${JSON.stringify(pair.candidate)}\n`,
      );
  }
  out.write("\nall files:\n");
  for (const [kind, { caught, n }] of totals)
    out.write(
      `  ${kind.padEnd(9)} caught ${String(caught).padStart(4)} of ${String(n).padStart(4)} (${percent(caught, n)})\n`,
    );
}
