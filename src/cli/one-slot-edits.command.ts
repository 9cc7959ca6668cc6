import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { BadInputError } from "../common/errors";
import { PairRow } from "../judge/hard-negatives";
import {
  HEURISTIC_JUDGE_VERSION,
  HEURISTIC_JUDGE_VERSIONS,
  HeuristicJudgeVersion,
  isHeuristicJudgeVersion,
  judgeHeuristically,
} from "../judge/heuristic-judge";
import { cutRows, keepsFact, ONE_SLOT_KINDS, OneSlotEdit, oneSlotEdits } from "../judge/one-slot-edits";
import { readPairRows } from "./hard-negatives.command";

/**
 * Rows of a file: sentence pairs (sentence1/sentence2 or first_piece/reference columns, NLI when sentence1), or a
 * CSV of single texts without a header (DBpedia's: the longest field of each row), cut as the study cuts them.
 */
export function readEditRows(file: string, text: string): { rows: PairRow[]; nli: boolean } {
  const header = text.split("\n", 1)[0];
  if (/sentence1|first_piece/.test(header))
    return { rows: readPairRows(file, text), nli: /sentence1/.test(header) };
  let records: string[][];
  try {
    records = parse(text, { skip_empty_lines: true, bom: true, relax_column_count: true });
  } catch (error) {
    throw new BadInputError(`${file}: ${(error as Error).message}`);
  }
  const texts = records.map((fields) => fields.reduce((a, b) => (b.length > a.length ? b : a), ""));
  return { rows: cutRows(texts), nli: false };
}

/**
 * `memicl one-slot-edits FILE... [--per-kind N] [--seed S] [--judge-version V] [--show N]`: builds seeded one-slot
 * edits of each file's references (one-slot-edits.ts), judges them and prints, per kind, how often the judge is
 * right: INEXACT for a changed fact, exact or near-exact for the same fact in another form (docs/JUDGING.md).
 */
export async function runOneSlotEdits(
  files: string[],
  options: { perKind?: number; seed?: number; judgeVersion?: string; show?: number },
): Promise<void> {
  const version = options.judgeVersion ?? HEURISTIC_JUDGE_VERSION;
  if (!isHeuristicJudgeVersion(version))
    throw new BadInputError(`--judge-version: one of ${HEURISTIC_JUDGE_VERSIONS.join(", ")}`);
  const out = process.stdout;
  out.write(
    `one-slot edits judged by ${version} (right = INEXACT for a changed fact, exact or near-exact for the same fact)\n`,
  );
  let worst = 1;
  for (const file of files) {
    const { rows, nli } = readEditRows(file, fs.readFileSync(file, "utf8"));
    const edits = oneSlotEdits(rows, { perKind: options.perKind ?? 200, seed: options.seed ?? 1 });
    out.write(
      `\n${path.basename(path.dirname(file)) || file} (${file}): ${rows.length} rows${nli ? ", NLI" : ""}\n`,
    );
    const wrong: [OneSlotEdit, string][] = [];
    for (const kind of ONE_SLOT_KINDS) {
      const ofKind = edits.filter((edit) => edit.kind === kind);
      let right = 0;
      for (const edit of ofKind) {
        const { verdict } = judgeHeuristically(edit.reference, edit.candidate, undefined, [], {
          version: version as HeuristicJudgeVersion,
          context: { firstPiece: edit.firstPiece, nli },
        });
        if (keepsFact(kind) ? verdict !== "INEXACT" : verdict === "INEXACT") right += 1;
        else wrong.push([edit, verdict]);
      }
      if (ofKind.length > 0) worst = Math.min(worst, right / ofKind.length);
      const share = ofKind.length === 0 ? "-" : `${((100 * right) / ofKind.length).toFixed(1)}%`;
      out.write(
        `  ${kind.padEnd(13)} ${keepsFact(kind) ? "same fact   " : "changed fact"} right ${String(right).padStart(4)} of ${String(ofKind.length).padStart(4)} (${share})\n`,
      );
    }
    for (const [edit, verdict] of wrong.slice(0, options.show ?? 0))
      out.write(
        `    ${edit.kind} judged ${verdict}: ${JSON.stringify(edit.reference)} -> ${JSON.stringify(edit.candidate)}\n`,
      );
  }
  out.write(`\nworst_kind_accuracy=${worst.toFixed(3)}\n`);
}
