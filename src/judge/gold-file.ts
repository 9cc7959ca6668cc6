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
}

/** Reads a gold CSV with columns `reference`, `candidate`, `human` (labels `exact`, `near_exact`, `inexact`). */
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
    };
  });
}
