import { MemorizationSetting } from "../../study/settings";
import { contaminationSummary, logprobLosses, replicationVerdicts } from "../analyses";
import type { CddEvidence } from "../rows/cdd";
import type { CodecEvidence } from "../rows/codec";
import {
  ContaminationSummaryRow,
  GuidedGeneralEvidence,
  QuizEvidence,
  ReplicationEvidence,
  ReplicationTest,
  TimeTravelEvidence,
} from "../rows/contamination-summary";
import type { NgramEvidence } from "../rows/ngram";
import type { GuessingEvidence } from "../rows/ts-guessing";
import { guidedVsGeneralTable } from "./guided-general";
import { LogprobEvidence } from "./logprob";
import { noMemoryFloorTable } from "./no-memory-floor";
import { quizTable } from "./quiz";
import {
  defineTable,
  EFFECTIVE_JUDGE,
  interval,
  markdownTable,
  num,
  pct,
  pValue,
  sampleLabel,
  verdictWord,
} from "./table";

export {
  ContaminationSummaryRow,
  GuidedGeneralEvidence,
  QuizEvidence,
  ReplicationEvidence,
  ReplicationTest,
  TimeTravelEvidence,
};

declare module "./table" {
  interface ReportTables {
    contaminationSummary: ContaminationSummaryRow[];
  }
}

/** The LOGPROB method's cell of the summary: its verdict against the control, or what it has without one. */
function logprobCell(evidence: LogprobEvidence | null): string {
  if (!evidence) return "not run";
  const scored = evidence.scores.find((score) => score.score === "minK")?.instances ?? 0;
  const test = evidence.tests.find((t) => t.score === "minK");
  const lost = lossesCell(evidence);
  if (test && evidence.verdict)
    return `${verdictWord(evidence.verdict)} (AUC ${num(test.auc)} against ${test.controlDataset}, p ${pValue(test.pValue)}; n=${test.instances}/${test.controlInstances})${lost}`;
  if (evidence.member !== null)
    return `${evidence.member ? "member" : "non-member"} (labelled; ${scored} scored): see the calibration${lost}`;
  return `${scored} scored; no control, no verdict${lost}`;
}

/** The CDD method's cell of the summary: its verdict against the control, and the authors' share leaked. */
function cddCell(evidence: CddEvidence | null): string {
  if (!evidence) return "not run";
  const share = `leaked ${pct(evidence.leakShare) || "n/a"} ${interval(evidence.leakShareLow, evidence.leakShareHigh)} at xi ${evidence.xi}, ${evidence.prompt.toLowerCase()} prompt`;
  const missing = evidence.notCompared > 0 ? `; ${evidence.notCompared} instance(s) not compared` : "";
  const test = evidence.test;
  if (test && evidence.verdict)
    return `${verdictWord(evidence.verdict)} (AUC ${num(test.auc)} against ${test.controlDataset}, p ${pValue(test.pValue)}; n=${test.instances}/${test.controlInstances}; ${share}; control leaked ${pct(test.controlLeakShare) || "n/a"})${missing}`;
  return `${evidence.instances} compared, ${share}; no control, no verdict${missing}`;
}

/** CoDeC's cell of the summary: its verdict against the control, or the share whose confidence drops without one. */
function codecCell(evidence: CodecEvidence | null): string {
  if (!evidence) return "not run";
  const share = `${evidence.dropped}/${evidence.instances} drop with context (${pct(evidence.dropShare) || "n/a"})`;
  const missing = evidence.notCompared > 0 ? `; ${evidence.notCompared} instance(s) not compared` : "";
  const test = evidence.test;
  if (test && evidence.verdict)
    return `${verdictWord(evidence.verdict)} (AUC ${num(test.auc)} against ${test.controlDataset}, p ${pValue(test.pValue)}; n=${test.instances}/${test.controlInstances}; ${share}, the control's ${pct(test.controlDropShare) || "n/a"})${missing}`;
  return `${share}; no control, no verdict${missing}`;
}

/** TS-Guessing's cell of the summary: its verdict against the control, or its exact-match rate without one. */
function guessingCell(evidence: GuessingEvidence | null): string {
  if (!evidence) return "not run";
  const rate = `${evidence.matched}/${evidence.instances} masked words guessed (${pct(evidence.matchRate) || "n/a"})`;
  const missing =
    evidence.notCompared > 0 ? `; ${evidence.notCompared} instance(s) not asked or answered` : "";
  const test = evidence.test;
  if (test && evidence.verdict)
    return `${verdictWord(evidence.verdict)} (AUC ${num(test.auc)} against ${test.controlDataset}, p ${pValue(test.pValue)}; n=${test.instances}/${test.controlInstances}; ${rate}, the control's ${pct(test.controlMatchRate) || "n/a"})${missing}`;
  return `${rate}; no control, no verdict${missing}`;
}

/** N-gram coverage's cell of the summary: its verdict against the control, or its coverage without one. */
function ngramCell(evidence: NgramEvidence | null): string {
  if (!evidence) return "not run";
  const coverage = `mean coverage ${pct(evidence.meanCoverage) || "n/a"} (n=${evidence.n}, ${evidence.prompt.toLowerCase()} prompt)`;
  const missing = evidence.notCompared > 0 ? `; ${evidence.notCompared} instance(s) not compared` : "";
  const test = evidence.test;
  if (test && evidence.verdict)
    return `${verdictWord(evidence.verdict)} (AUC ${num(test.auc)} against ${test.controlDataset}, p ${pValue(test.pValue)}; n=${test.instances}/${test.controlInstances}; ${coverage}, the control's ${pct(test.controlMeanCoverage) || "n/a"})${missing}`;
  return `${evidence.instances} compared, ${coverage}; no control, no verdict${missing}`;
}

/** "; 40 of 40 items failed (the commonest reason: ...)" for a sample whose runs lost items; empty otherwise. */
function lossesCell(evidence: LogprobEvidence): string {
  const losses = logprobLosses(evidence.runs ?? []);
  if (losses.lost === 0) return "";
  const parts = [
    [losses.failed, "failed"],
    [losses.unusable, "answered but not scorable"],
    [losses.notTried, "never tried"],
  ].filter(([count]) => (count as number) > 0);
  return (
    `; of ${losses.expected} items, ${parts.map(([count, what]) => `${count} ${what}`).join(", ")}` +
    (losses.reason !== null ? ` (the commonest reason: ${losses.reason})` : "")
  );
}

const CANNOT_TELL =
  "What each method cannot tell: the replication verdict tests memorization above the no-memory floor on " +
  "non-trivial targets and bounds contamination from below (a model that memorized but does not recite, or " +
  "whose memorized targets are trivial or within the floor, is missed); Time Travel's rule is not a test, its " +
  "false-positive rate is beside it; Algorithm 1 shows that naming the dataset helps, not how much was seen " +
  "(BLEURT-20 is not available here); the quiz's range depends on its generated options and has no error rate; " +
  "the logprob scores see what a model will not recite but need prompt log-probabilities, and decide only " +
  "against a control dataset (or describe a labelled calibration); CDD needs only sampling, but any model that " +
  "answers the same way every time is peaked (a constant answer is leaked on every instance by the authors' " +
  "rule), so it too decides only against a control, as n-gram coverage does (a continuation the task makes " +
  "predictable is covered without memory), and as CoDeC does (instances of one dataset may help each other more " +
  "than another's without memory), and as TS-Guessing does (a word the rest of the text implies is guessed " +
  "without memory). The API's contaminationSummary carries each " +
  "in full.";

export const contaminationSummaryTable = defineTable<"contaminationSummary">({
  field: "contaminationSummary",
  type: () => [ContaminationSummaryRow],
  description: "Every method's evidence per sample, side by side (see contaminationSummary).",
  compute: async (inputs) => {
    const [outcomes, instanceFloors, { trivial }, samples, contamination] = await Promise.all([
      inputs.instances(),
      inputs.floors(),
      inputs.targets(),
      inputs.samples(),
      inputs.read("contamination"),
    ]);
    return contaminationSummary(
      {
        contamination: contamination.rows,
        pools: contamination.pools,
        floors: await inputs.table(noMemoryFloorTable),
        guidedGeneral: await inputs.table(guidedVsGeneralTable),
        quiz: await inputs.table(quizTable),
        runs: await inputs.runs(),
        verdicts: replicationVerdicts(outcomes, instanceFloors, trivial, samples),
        instanceFloors,
        logprob: await inputs.read("logprob"),
        cdd: await inputs.read("cdd"),
        ngramCoverage: await inputs.read("ngramCoverage"),
        codec: await inputs.read("codec"),
        tsGuessing: await inputs.read("tsGuessing"),
      },
      samples,
    );
  },
  markdown: {
    title: "Contamination summary (each method's evidence side by side; the verdict is replication's test)",
    body: (rows) =>
      (rows.length === 0
        ? "No method's results yet."
        : markdownTable(
            [
              "dataset",
              "split",
              "sample",
              "replication verdict",
              "why (level, power)",
              "replication above floor",
              "Time Travel rule (k, exact, near-exact / 10; its no-memory false-positive rate)",
              "Algorithm 1 (paired p, unpaired p)",
              "quiz range (authors' [lower, upper]; only kappa is bias-corrected)",
              "logprob (Min-K% against the control, one-sided)",
              "CDD (peakedness against the control, one-sided; the authors' share leaked)",
              "n-gram coverage (against the control, one-sided)",
              "CoDeC (confidence drops with context, against the control, one-sided)",
              "TS-Guessing (masked words guessed, against the control, one-sided)",
            ],
            rows.map((row) => [
              row.dataset,
              row.split ?? "",
              sampleLabel(row),
              row.replication ? verdictWord(row.replication.verdict) : "not run",
              row.replication
                ? `${row.replication.reason}; minimum detectable rate ${pct(row.replication.minimumDetectableRate) || "none"}`
                : "",
              row.replication
                ? `${pct(row.replication.aboveFloorRate)} ${interval(row.replication.aboveFloorCiLow, row.replication.aboveFloorCiHigh)} ` +
                  `(k=${row.replication.shots}: ${row.replication.aboveFloor}/${row.replication.instances}, floor ${pct(row.replication.floorRate)}; ` +
                  `general instruction ${pct(row.replication.generalInstructionRate)})`
                : "not run",
              row.timeTravel
                ? `${row.timeTravel.contaminated ? "rule met" : "rule not met"} (k=${row.timeTravel.shots}, ` +
                  `${row.timeTravel.exact}, ${row.timeTravel.nearExact} / ${row.timeTravel.subsetJudged} of ` +
                  `${row.timeTravel.pool} non-trivial; false positives ${pct(row.timeTravel.falsePositiveRate) || "n/a"})`
                : "not run",
              row.guidedGeneral
                ? `${row.guidedGeneral.significant ? "significant" : "not significant"} (${num(row.guidedGeneral.pValuePaired)}, ` +
                  `${num(row.guidedGeneral.pValueUnpaired)}; n=${row.guidedGeneral.instances})`
                : "not run",
              row.quiz && row.quiz.range.lower !== null
                ? `[${pct(row.quiz.range.lower)}, ${pct(row.quiz.range.upper)}] (n=${row.quiz.range.instances})`
                : row.quiz
                  ? "no range yet"
                  : "not run",
              logprobCell(row.logprob),
              cddCell(row.cdd),
              ngramCell(row.ngramCoverage),
              codecCell(row.codec),
              guessingCell(row.tsGuessing),
            ]),
          )) +
      "\n\n" +
      CANNOT_TELL,
  },
  statistics: [
    "replication_contaminated",
    "replication_cannot_tell",
    "replication_p",
    "replication_minimum_detectable_rate",
    "replication_test_p",
    "time_travel_rule_met",
    "time_travel_false_positive_rate",
    "logprob_mean",
    "logprob_auc",
    "logprob_p",
    "logprob_contaminated",
    "cdd_leak_share",
    "cdd_mean_peakedness",
    "cdd_p",
    "cdd_contaminated",
    "ngram_coverage_mean",
    "ngram_coverage_p",
    "ngram_coverage_contaminated",
    "codec_drop_share",
    "codec_p",
    "codec_contaminated",
    "ts_guessing_match_rate",
    "ts_guessing_p",
    "ts_guessing_contaminated",
  ],
  flat: (rows, emit) => {
    for (const row of rows) {
      const replication = row.replication;
      if (replication) {
        const scope = {
          ...row,
          setting: MemorizationSetting.FULL_INFORMATION,
          shots: replication.verdictShots,
          judge: EFFECTIVE_JUDGE,
        };
        emit("replication_contaminated", scope, replication.verdict === "CONTAMINATED");
        emit("replication_cannot_tell", scope, replication.verdict === "CANNOT_TELL");
        emit("replication_p", scope, replication.pValue, { denominator: replication.family });
        emit("replication_minimum_detectable_rate", scope, replication.minimumDetectableRate);
        for (const test of replication.tests)
          emit("replication_test_p", { ...scope, shots: test.shots }, test.pValue, {
            numerator: test.aboveFloor,
            denominator: test.eligible,
          });
      }
      if (row.timeTravel) {
        const scope = {
          ...row,
          setting: MemorizationSetting.FULL_INFORMATION,
          shots: row.timeTravel.shots,
          judge: EFFECTIVE_JUDGE,
        };
        emit("time_travel_rule_met", scope, row.timeTravel.contaminated, {
          denominator: row.timeTravel.subsetJudged,
        });
        emit("time_travel_false_positive_rate", scope, row.timeTravel.falsePositiveRate, {
          denominator: row.timeTravel.pool,
        });
      }
      if (row.logprob) {
        for (const score of row.logprob.scores)
          emit("logprob_mean", { ...row, group: `score=${score.score}` }, score.mean, {
            denominator: score.instances,
          });
        for (const test of row.logprob.tests) {
          const scope = { ...row, group: `score=${test.score}`, otherDataset: test.controlDataset };
          const counts = { numerator: test.instances, denominator: test.instances + test.controlInstances };
          emit("logprob_auc", scope, test.auc, counts);
          emit("logprob_p", scope, test.pValue, counts);
        }
        if (row.logprob.verdict) emit("logprob_contaminated", row, row.logprob.verdict === "CONTAMINATED");
      }
      if (row.cdd) {
        const counts = { numerator: row.cdd.leaked, denominator: row.cdd.instances };
        emit("cdd_leak_share", row, row.cdd.leakShare, {
          ...counts,
          ciLow: row.cdd.leakShareLow,
          ciHigh: row.cdd.leakShareHigh,
        });
        emit("cdd_mean_peakedness", row, row.cdd.meanPeakedness, { denominator: row.cdd.instances });
        if (row.cdd.test)
          emit("cdd_p", { ...row, otherDataset: row.cdd.test.controlDataset }, row.cdd.test.pValue, {
            numerator: row.cdd.test.instances,
            denominator: row.cdd.test.instances + row.cdd.test.controlInstances,
          });
        if (row.cdd.verdict) emit("cdd_contaminated", row, row.cdd.verdict === "CONTAMINATED");
      }
      const ngram = row.ngramCoverage;
      if (ngram) {
        emit("ngram_coverage_mean", { ...row, group: `n=${ngram.n}` }, ngram.meanCoverage, {
          denominator: ngram.instances,
        });
        if (ngram.test)
          emit("ngram_coverage_p", { ...row, otherDataset: ngram.test.controlDataset }, ngram.test.pValue, {
            numerator: ngram.test.instances,
            denominator: ngram.test.instances + ngram.test.controlInstances,
          });
        if (ngram.verdict) emit("ngram_coverage_contaminated", row, ngram.verdict === "CONTAMINATED");
      }
      const codec = row.codec;
      if (codec) {
        emit("codec_drop_share", row, codec.dropShare, {
          numerator: codec.dropped,
          denominator: codec.instances,
          ciLow: codec.dropShareLow,
          ciHigh: codec.dropShareHigh,
        });
        if (codec.test)
          emit("codec_p", { ...row, otherDataset: codec.test.controlDataset }, codec.test.pValue, {
            numerator: codec.test.instances,
            denominator: codec.test.instances + codec.test.controlInstances,
          });
        if (codec.verdict) emit("codec_contaminated", row, codec.verdict === "CONTAMINATED");
      }
      const guessing = row.tsGuessing;
      if (guessing) {
        emit("ts_guessing_match_rate", row, guessing.matchRate, {
          numerator: guessing.matched,
          denominator: guessing.instances,
          ciLow: guessing.matchRateLow,
          ciHigh: guessing.matchRateHigh,
        });
        if (guessing.test)
          emit(
            "ts_guessing_p",
            { ...row, otherDataset: guessing.test.controlDataset },
            guessing.test.pValue,
            {
              numerator: guessing.test.instances,
              denominator: guessing.test.instances + guessing.test.controlInstances,
            },
          );
        if (guessing.verdict) emit("ts_guessing_contaminated", row, guessing.verdict === "CONTAMINATED");
      }
    }
  },
  formerNames: {
    "replication_verdict.contaminated": "replication_contaminated",
    "replication_verdict.cannot_tell": "replication_cannot_tell",
    "replication_verdict.p_value": "replication_p",
    "replication_verdict.minimum_detectable_rate": "replication_minimum_detectable_rate",
    "contamination.rule_false_positive_rate": "time_travel_false_positive_rate",
  },
});
