import { createHash } from "node:crypto";
import fs from "node:fs";
import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { Agreement, agreement, VERDICT_ORDER } from "../judge/agreement";
import { readGoldCsv } from "../judge/gold-file";
import {
  DEFAULT_THRESHOLDS_FITTED_ON,
  HEURISTIC_JUDGE_VERSION,
  HEURISTIC_JUDGE_VERSIONS,
  HeuristicJudgeVersion,
  judgeHeuristically,
} from "../judge/heuristic-judge";
import { LLM_JUDGE_VERSIONS, llmJudgeOf } from "../judge/time-travel-judge";
import { JudgeVerdict } from "../judge/verdicts";

export const fixed = (value: number) => (Number.isNaN(value) ? "nan" : value.toFixed(3));

export function printAgreement(title: string, result: Agreement) {
  const out = process.stdout;
  out.write(`${title}\n`);
  out.write(
    `n=${result.n} excluded=${result.excluded} accuracy=${fixed(result.percentAgreement)} kappa=${fixed(result.kappa)} kappa_binary=${fixed(result.kappaBinary)} binary_accuracy=${fixed(result.binaryAgreement)}\n`,
  );
  out.write(`confusion (rows: human, columns: judge; ${VERDICT_ORDER.join(", ")}):\n`);
  for (const [index, row] of result.confusion.entries())
    out.write(
      `  ${VERDICT_ORDER[index].padEnd(10)} ${row.map((cell) => String(cell).padStart(4)).join(" ")}\n`,
    );
}

/** `memicl judge-agreement GOLD.csv [--judge heuristic|llm:PROVIDER/MODEL]`: the judge as configured, against human labels. */
export async function runJudgeAgreement(
  config: Config,
  file: string,
  options: { judge: string; judgeVersion?: string },
): Promise<void> {
  const heuristic = options.judge === "heuristic";
  const versions: readonly string[] = heuristic ? HEURISTIC_JUDGE_VERSIONS : LLM_JUDGE_VERSIONS;
  if (options.judgeVersion && !versions.includes(options.judgeVersion))
    throw new BadInputError(
      `--judge-version: for ${heuristic ? "the heuristic judge" : "an LLM judge"}, one of ${versions.join(", ")}`,
    );
  const content = fs.readFileSync(file);
  const pairs = readGoldCsv(content.toString("utf8"));
  let verdicts: JudgeVerdict[];
  let unsure: boolean[] = [];
  let firstUnreadable: string | null = null;
  if (heuristic) {
    const version = (options.judgeVersion ?? HEURISTIC_JUDGE_VERSION) as HeuristicJudgeVersion;
    const judged = pairs.map((pair) =>
      judgeHeuristically(pair.reference, pair.candidate, undefined, [], {
        version,
        context: { firstPiece: pair.firstPiece, nli: pair.nli },
      }),
    );
    verdicts = judged.map((judgment) => judgment.verdict);
    unsure = judged.map((judgment) => judgment.unsure);
  } else {
    const match = /^llm:([^/]+)\/(.+)$/.exec(options.judge);
    if (!match) throw new BadInputError('--judge: "heuristic" or "llm:PROVIDER/MODEL"');
    const [, providerName, model] = match;
    // Only the LLM judge needs the database and the providers: the heuristic path stays light.
    const { openForCommand } = require("./open-database") as typeof import("./open-database");
    const { callWithRetries, retryPolicyOf } =
      require("../llm/call-with-retries") as typeof import("../llm/call-with-retries");
    // The simulated provider needs the database; real providers do not, but opening it is cheap.
    const command = await openForCommand(config, { say: process.stderr });
    try {
      const { provider, config: providerConfig, limiter } = command.services.providers.get(providerName);
      const { prompt, version } = await command.services.templates.judgePrompt();
      const judge = llmJudgeOf(options.judgeVersion, { body: prompt, version });
      verdicts = [];
      for (const pair of pairs) {
        const outcome = await callWithRetries(
          provider,
          {
            model,
            messages: judge.messages(pair.reference, pair.candidate),
            temperature: 0,
            maxOutputTokens: 10,
          },
          retryPolicyOf(providerConfig),
          { beforeAttempt: (signal) => limiter.acquire(400, signal) },
        );
        const verdict = outcome.ok ? judge.parse(outcome.result.text) : "UNPARSEABLE";
        if (verdict === "UNPARSEABLE")
          firstUnreadable ??= outcome.ok
            ? `it answered ${JSON.stringify(outcome.result.text.slice(0, 200))}`
            : `the call failed: ${outcome.error.message}`;
        verdicts.push(verdict);
      }
    } finally {
      await command.close();
    }
  }
  const unreadable = verdicts.filter((verdict) => verdict === "UNPARSEABLE").length;
  if (pairs.length > 0 && unreadable === pairs.length)
    throw new BadInputError(
      `judge ${options.judge} gave no readable verdict on any of the ${pairs.length} pairs (${firstUnreadable}); no agreement to report`,
    );
  const result = agreement(pairs.map((pair, index) => [pair.human, verdicts[index]]));
  printAgreement(
    `judge ${options.judge} against the human labels of ${file} (${pairs.length} pairs):`,
    result,
  );
  if (options.judge === "heuristic")
    process.stdout.write(
      createHash("sha256").update(content).digest("hex") === DEFAULT_THRESHOLDS_FITTED_ON
        ? "IN-SAMPLE: the heuristic's thresholds were fitted on this very file, so this figure is optimistic; report the held-out one (memicl calibrate-judge)\n"
        : "held-out: the heuristic's thresholds were not fitted on this file\n",
    );
  if (unsure.some(Boolean)) {
    // The report's bounds on this file: unsure near-exact verdicts counted out, unsure inexact ones counted in.
    const memorized = (verdict: JudgeVerdict) => verdict === "EXACT" || verdict === "NEAR_EXACT";
    const sure = verdicts.filter((verdict, index) => memorized(verdict) && !unsure[index]).length;
    const most = verdicts.filter((verdict, index) => memorized(verdict) || unsure[index]).length;
    const byJudge = verdicts.filter(memorized).length;
    const byHumans = pairs.filter((pair) => memorized(pair.human)).length;
    process.stdout.write(
      `memorized (exact or near-exact): judge ${byJudge}, bounds ${sure}-${most} (${unsure.filter(Boolean).length} verdicts unsure), humans ${byHumans}, of ${pairs.length}\n`,
    );
  }
  if (unreadable > 0)
    process.stdout.write(
      `unreadable verdicts: ${unreadable} of ${pairs.length} (left out of the figures above)\n`,
    );
  process.stdout.write(
    `kappa_binary=${fixed(result.kappaBinary)} accuracy=${fixed(result.percentAgreement)}\n`,
  );
}
