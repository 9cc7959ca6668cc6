import { parse } from "csv-parse/sync";
import { BadInputError } from "../common/errors";
import { JudgeVerdict, verdictFromLabel } from "./verdicts";

/** One human-labelled pair: the real continuation, what a model wrote, and the human verdict. */
export interface GoldPair {
  line: number;
  /** The `dataset` column when there is one (used to hold a dataset out in cross-validation). */
  group: string;
  reference: string;
  candidate: string;
  human: JudgeVerdict;
  /** The instance's first piece (`first_piece` column), which heuristic-6 reads for referents. */
  firstPiece?: string;
  /** An NLI pair: the `task` column says `nli`, or the dataset is one of the NLI benchmarks (`NLI_DATASETS`). */
  nli: boolean;
}

/** Dataset names read as NLI when a gold file has no `task` column (the GLUE and SuperGLUE NLI sets, SNLI, ANLI). */
export const NLI_DATASETS = new Set([
  "rte",
  "wnli",
  "mnli",
  "snli",
  "qnli",
  "cb",
  "anli",
  "axb",
  "axg",
  "scitail",
]);

/**
 * Reads a gold CSV with columns `reference`, `candidate`, `human` (labels `exact`, `near_exact`, `inexact`), and
 * optionally `dataset` (the cross-validation groups), `first_piece` and `task`.
 */
export function readGoldCsv(text: string): GoldPair[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, bom: true });
  } catch (error) {
    throw new BadInputError(`gold file: ${(error as Error).message}`);
  }
  if (records.length === 0) throw new BadInputError("gold file: no rows");
  for (const column of ["reference", "candidate", "human"]) {
    if (!(column in records[0]))
      throw new BadInputError(
        `gold file: no "${column}" column (columns: ${Object.keys(records[0]).join(", ")})`,
      );
  }
  return records.map((record, index) => {
    const human = verdictFromLabel(record.human);
    if (!human)
      throw new BadInputError(
        `gold file, row ${index + 2}: human label "${record.human}" is not exact, near_exact or inexact`,
      );
    return {
      line: index + 2,
      group: record.dataset ?? "all",
      reference: record.reference,
      candidate: record.candidate,
      human,
      ...(record.first_piece !== undefined ? { firstPiece: record.first_piece } : {}),
      nli:
        record.task !== undefined
          ? record.task.trim().toLowerCase() === "nli"
          : NLI_DATASETS.has((record.dataset ?? "").trim().toLowerCase()),
    };
  });
}
