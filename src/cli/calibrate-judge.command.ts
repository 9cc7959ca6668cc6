import fs from "node:fs";
import { BadInputError } from "../common/errors";
import { calibrate, THRESHOLD_NAMES } from "../judge/calibration";
import { readGoldCsv } from "../judge/gold-file";
import {
  HEURISTIC_JUDGE_VERSION,
  HEURISTIC_JUDGE_VERSIONS,
  HeuristicThresholds,
  isHeuristicJudgeVersion,
} from "../judge/heuristic-judge";
import { fixed, printAgreement } from "./judge-agreement.command";

/**
 * `memicl calibrate-judge GOLD.csv [--fit NAMES]`: fits the named thresholds of the heuristic judge; reports the
 * leave-one-dataset-out figures of that fitting procedure.
 */
export async function runCalibrateJudge(
  file: string,
  options: { fit: string; judgeVersion?: string },
): Promise<void> {
  const version = options.judgeVersion ?? HEURISTIC_JUDGE_VERSION;
  if (!isHeuristicJudgeVersion(version))
    throw new BadInputError(`--judge-version: one of ${HEURISTIC_JUDGE_VERSIONS.join(", ")}`);
  const fitted = options.fit
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = fitted.filter((name) => !(THRESHOLD_NAMES as string[]).includes(name));
  if (fitted.length === 0 || unknown.length > 0)
    throw new BadInputError(
      `--fit: ${unknown.length > 0 ? `unknown threshold ${unknown.join(", ")}` : "no threshold named"}; the thresholds are ${THRESHOLD_NAMES.join(", ")}`,
    );
  const pairs = readGoldCsv(fs.readFileSync(file, "utf8"));
  const report = calibrate(pairs, fitted as (keyof HeuristicThresholds)[], version);
  const out = process.stdout;
  out.write(
    `calibrating the heuristic judge ${version} on ${file}: ${pairs.length} pairs, ${report.folds.length} groups (the dataset column)\n`,
  );
  out.write(`fitting ${fitted.join(", ")}; the other thresholds keep their defaults\n\n`);
  for (const fold of report.folds)
    out.write(
      `held out ${fold.heldOut} (${fold.n} pairs): thresholds fitted on the rest ${JSON.stringify(fold.thresholds)}\n`,
    );
  out.write("\n");
  printAgreement(
    "HELD-OUT agreement (each group judged with thresholds fitted on the other groups; the figure to report):",
    report.heldOut,
  );
  out.write("\n");
  printAgreement(
    "in-sample agreement of the thresholds fitted on every pair (optimistic; do not report):",
    report.fitted.agreement,
  );
  out.write(`\nfitted thresholds: ${JSON.stringify(report.fitted.thresholds)}\n`);
  out.write(
    `kappa_binary=${fixed(report.heldOut.kappaBinary)} accuracy=${fixed(report.heldOut.percentAgreement)}\n`,
  );
}
