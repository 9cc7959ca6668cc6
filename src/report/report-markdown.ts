import { ExperimentComparison, StudyReport } from "./report.types";

const pct = (value: number | null | undefined) => (value == null ? "" : `${(value * 100).toFixed(1)}%`);
const num = (value: number | null | undefined, digits = 3) => (value == null ? "" : value.toFixed(digits));
const pValue = (value: number | null | undefined) =>
  value == null ? "" : value < 0.0001 ? value.toExponential(1) : value.toFixed(4);
const interval = (low: number | null | undefined, high: number | null | undefined, format = pct) =>
  low == null || high == null ? "" : `${format(low)} - ${format(high)}`;
const method = (value: string | null | undefined) =>
  value === "CLUSTER_BOOTSTRAP" ? "cluster bootstrap" : value === "WILSON" ? "Wilson" : "";

interface SampleLabelled {
  sampleId: string | null;
  sampleName: string | null;
  sampleSeed: string | null;
  samples?: number;
}

/** "name (seed 42)" for a sample's row; "pooled (2 samples)" for a row over several. */
export function sampleLabel(row: SampleLabelled): string {
  if (row.sampleId === null) return row.samples && row.samples > 1 ? `pooled (${row.samples} samples)` : "";
  return `${row.sampleName ?? row.sampleId.slice(0, 8)} (seed ${row.sampleSeed})`;
}

const verdictWord = (verdict: string) =>
  verdict === "CONTAMINATED" ? "contaminated" : verdict === "NO_EVIDENCE" ? "no evidence" : "cannot tell";

function table(headers: string[], rows: (string | number | boolean | null)[][]): string {
  const line = (cells: (string | number | boolean | null)[]) =>
    `| ${cells.map((cell) => String(cell ?? "")).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The study's tables as Markdown. */
export function reportMarkdown(report: StudyReport): string {
  // The headline table carries, per cell, what qualifies its rate: the no-memory floor, the rate above it, the
  // rate over non-trivial targets and the control dataset's rate.
  const cell = (sampleId: string | null, setting: string | null, shots: number | null | undefined) =>
    `${sampleId}|${setting}|${shots}`;
  const floors = new Map(
    (report.noMemoryFloor ?? []).map((row) => [cell(row.sampleId, row.setting, row.shots), row]),
  );
  const nonTrivial = new Map(
    (report.memorizationNonTrivial ?? []).map((row) => [cell(row.sampleId, row.setting, row.shots), row]),
  );
  const controls = new Map(
    (report.versusControl ?? []).map((row) => [`${row.dataset}|${row.setting}|${row.shots}`, row]),
  );
  const memorization = (rows: StudyReport["memorization"], key: "shots" | "regime") =>
    table(
      [
        "dataset",
        "sample",
        "setting",
        key === "shots" ? "k" : "regime",
        "n",
        "exact",
        "near-exact",
        "inexact",
        "unjudged",
        "rate",
        "95% CI",
        "interval",
        "sd between samples",
        ...(key === "shots"
          ? ["no-memory floor", "above floor (95% CI)", "non-trivial rate", "control rate"]
          : []),
      ],
      rows.map((row) => {
        const floor = floors.get(cell(row.sampleId, row.setting, row.shots));
        const plain = nonTrivial.get(cell(row.sampleId, row.setting, row.shots));
        const control = controls.get(`${row.dataset}|${row.setting}|${row.shots}`);
        return [
          row.dataset,
          sampleLabel(row),
          row.setting,
          key === "shots" ? row.shots : row.regime,
          row.n,
          row.exact,
          row.nearExact,
          row.inexact,
          row.unjudged,
          pct(row.rate),
          interval(row.ciLow, row.ciHigh),
          method(row.intervalMethod),
          num(row.betweenSampleStandardDeviation),
          ...(key === "shots"
            ? [
                pct(floor?.floorRate),
                floor
                  ? `${pct(floor.aboveFloorRate)} (${interval(floor.aboveFloorCiLow, floor.aboveFloorCiHigh)})`
                  : "",
                plain ? `${pct(plain.rate)} (${plain.trivialInstances} trivial left out)` : "",
                control ? `${pct(control.controlRate)} (${control.controlDataset})` : "",
              ]
            : []),
        ];
      }),
    );
  const paired = (rows: StudyReport["settingComparisons"]) =>
    table(
      [
        "dataset",
        "sample",
        "A",
        "B",
        "pairs",
        "both",
        "only A",
        "only B",
        "neither",
        "rate A",
        "rate B",
        "McNemar p",
        "Holm p",
      ],
      rows.map((row) => [
        row.dataset,
        sampleLabel(row),
        `${row.settingA} k=${row.shotsA}`,
        `${row.settingB} k=${row.shotsB}`,
        row.pairs,
        row.bothMemorized,
        row.onlyA,
        row.onlyB,
        row.neither,
        pct(row.rateA),
        pct(row.rateB),
        pValue(row.pValue),
        pValue(row.pValueHolm),
      ]),
    );
  return [
    `# Study report: ${report.subject?.experimentName ?? report.experimentId}`,
    subjectLines(report),
    "Memorization is the share of judged completions whose effective verdict (a human's, else the automatic judge's) " +
      "is exact or near-exact. Intervals are 95%: Wilson score intervals where each instance counts once, cluster " +
      "bootstrap intervals (instances resampled, 2,000 resamples, fixed seed) where an instance counts several times. " +
      "Rows are per sample; a dataset with several samples also gets a pooled row. See docs/STATISTICS.md.",
    `Multiple comparisons: ${report.multipleComparisons}`,
    "## Memorization (exact or near-exact) by dataset, sample, setting and k",
    memorization(report.memorization, "shots"),
    "## Memorization (exact only)",
    table(
      ["dataset", "sample", "setting", "k", "n", "exact", "rate", "95% CI"],
      report.memorizationExactOnly.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.shots,
        row.n,
        row.memorized,
        pct(row.rate),
        interval(row.ciLow, row.ciHigh),
      ]),
    ),
    "## Memorization by regime",
    memorization(report.memorizationByRegime, "regime"),
    "## Performance",
    table(
      [
        "dataset",
        "sample",
        "k",
        "repeats",
        "n",
        "correct",
        "unparseable",
        "failed",
        "accuracy",
        "95% CI",
        "interval",
        "mean over repeats",
        "sd over repeats",
      ],
      report.performance.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.shots,
        row.repeats,
        row.n,
        row.correct,
        row.unparseable,
        row.failed,
        pct(row.accuracy),
        interval(row.ciLow, row.ciHigh),
        method(row.intervalMethod),
        pct(row.meanAccuracy),
        num(row.accuracyStandardDeviation),
      ]),
    ),
    "## Accuracy on memorized vs non-memorized instances",
    table(
      [
        "dataset",
        "sample",
        "setting",
        "k",
        "memorized (instances)",
        "correct / n",
        "accuracy",
        "not memorized (instances)",
        "correct / n",
        "accuracy",
        "difference",
        "95% CI (Newcombe)",
        "Fisher p",
        "Holm p",
      ],
      report.memorizedVsNotMemorized.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.shots,
        row.memorized.instances,
        `${row.memorized.correct} / ${row.memorized.n}`,
        pct(row.memorized.accuracy),
        row.notMemorized.instances,
        `${row.notMemorized.correct} / ${row.notMemorized.n}`,
        pct(row.notMemorized.accuracy),
        pct(row.difference),
        interval(row.differenceCiLow, row.differenceCiHigh),
        pValue(row.pValue),
        pValue(row.pValueHolm),
      ]),
    ),
    "## Correlation of performance and memorization across k",
    table(
      [
        "dataset",
        "sample",
        "setting",
        "measure",
        "points",
        "Pearson r",
        "95% CI (bootstrap; none below 10 points)",
        "p",
        "Holm p",
        "exact permutation p",
        "Spearman rho",
        "p",
        "Holm p",
        "Spearman p method",
      ],
      report.correlations.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.measure,
        row.n,
        row.pearsonDescriptive ? `${num(row.pearson)} (descriptive)` : num(row.pearson),
        interval(row.pearsonCiLow, row.pearsonCiHigh, (value) => num(value)),
        pValue(row.pearsonPValue),
        pValue(row.pearsonPValueHolm),
        pValue(row.pearsonPermutationPValue),
        num(row.spearman),
        pValue(row.spearmanPValue),
        pValue(row.spearmanPValueHolm),
        row.spearmanPValueMethod ?? "",
      ]),
    ),
    "## Settings compared on the same instances (McNemar)",
    paired(report.settingComparisons),
    "## Zero-shot against k-shot on the same instances (McNemar)",
    paired(report.zeroVsK),
    "## Memorization over non-trivial references (at least 3 words; each instance once, Wilson)",
    table(
      ["dataset", "sample", "setting", "k", "instances", "memorized", "rate", "95% CI", "trivial left out"],
      (report.memorizationNonTrivial ?? []).map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.shots,
        row.instances,
        row.memorized,
        pct(row.rate),
        interval(row.ciLow, row.ciHigh),
        row.trivialInstances,
      ]),
    ),
    "## Control: the no-memory floor (copying the input or a constant answer; each instance once, Wilson)",
    table(
      [
        "dataset",
        "sample",
        "setting",
        "k",
        "instances",
        "rate",
        "floor",
        "floor 95% CI",
        "by copy",
        "by constant",
        "above floor",
        "above floor 95% CI",
      ],
      (report.noMemoryFloor ?? []).map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.shots,
        row.instances,
        pct(row.rate),
        pct(row.floorRate),
        interval(row.floorCiLow, row.floorCiHigh),
        row.floorByCopy,
        row.floorByConstant,
        pct(row.aboveFloorRate),
        interval(row.aboveFloorCiLow, row.aboveFloorCiHigh),
      ]),
    ),
    "## Control: each dataset against its control dataset (each instance once; Newcombe, Fisher)",
    table(
      ["dataset", "control", "setting", "k", "rate", "control rate", "difference", "95% CI", "p", "p (Holm)"],
      (report.versusControl ?? []).map((row) => [
        row.dataset,
        row.controlDataset,
        row.setting,
        row.shots,
        `${pct(row.rate)} (${row.memorized}/${row.instances})`,
        `${pct(row.controlRate)} (${row.controlMemorized}/${row.controlInstances})`,
        pct(row.difference),
        interval(row.differenceCiLow, row.differenceCiHigh),
        pValue(row.pValue),
        pValue(row.pValueHolm ?? null),
      ]),
    ),
    "## Time Travel's Algorithm 1: guided against general instruction (ROUGE-L, one-sided bootstrap, 10,000 resamples)",
    table(
      [
        "dataset",
        "sample",
        "split",
        "k",
        "instances",
        "guided",
        "general",
        "difference",
        "p (paired)",
        "p (unpaired)",
        "significant",
      ],
      (report.guidedVsGeneral ?? []).map((row) => [
        row.dataset,
        sampleLabel(row),
        row.split ?? "",
        row.shots,
        row.instances,
        row.guidedMean.toFixed(3),
        row.generalMean.toFixed(3),
        row.difference === null ? "" : row.difference.toFixed(3),
        pValue(row.pValuePaired),
        pValue(row.pValueUnpaired),
        row.significant ? "yes" : "no",
      ]),
    ),
    "## Does ICL beat zero-shot once memorization reaches some level? (the paper's threshold; McNemar, raw p)",
    table(
      ["dataset", "sample", "setting", "k: memorized / gain (p)", "threshold", "highest without gain"],
      (report.iclThresholds ?? []).map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.points
          .map(
            (point) =>
              `k=${point.shots}: ${pct(point.memorizationRate)} / ${pct(point.gain)} (${pValue(point.pValue)})${point.significantGain ? "*" : ""}`,
          )
          .join("; "),
        pct(row.threshold),
        pct(row.highestWithoutGain),
      ]),
    ),
    "## Memorization by label and by reference length (each instance once, Wilson)",
    table(
      ["dataset", "sample", "setting", "k", "group", "instances", "memorized", "rate", "95% CI"],
      (report.memorizationByTarget ?? []).map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.shots,
        `${row.groupBy === "LABEL" ? "label" : "length"} ${row.group}`,
        row.instances,
        row.memorized,
        pct(row.rate),
        interval(row.ciLow, row.ciHigh),
      ]),
    ),
    "## Performance with k demonstrations against zero-shot, on the same instances (McNemar, raw p)",
    table(
      [
        "dataset",
        "sample",
        "k",
        "pairs",
        "accuracy k=0",
        "accuracy k",
        "difference",
        "only k=0",
        "only k",
        "p",
      ],
      (report.performanceVsZeroShot ?? []).map((row) => [
        row.dataset,
        sampleLabel(row),
        row.shots,
        row.pairs,
        pct(row.accuracyZeroShot),
        pct(row.accuracyKShot),
        pct(row.difference),
        row.onlyZeroShot,
        row.onlyKShot,
        pValue(row.pValue),
      ]),
    ),
    "## Near-exact matches that become exact as k grows",
    table(
      [
        "dataset",
        "sample",
        "setting",
        "from k",
        "to k",
        "near-exact at from",
        "exact at to",
        "rate",
        "95% CI",
        "baseline: inexact -> exact",
        "difference (95% CI)",
        "Fisher p",
      ],
      report.transitionRates.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.fromShots,
        row.toShots,
        row.nearExact,
        row.becameExact,
        pct(row.rate),
        interval(row.ciLow, row.ciHigh),
        row.inexact ? `${pct(row.baselineRate)} (${row.inexactBecameExact}/${row.inexact})` : "",
        row.difference == null
          ? ""
          : `${pct(row.difference)} (${interval(row.differenceCiLow, row.differenceCiHigh)})`,
        pValue(row.pValue),
      ]),
    ),
    "## Contamination verdict (the original rule on a fixed, seeded 10-instance subset: at least one exact or two near-exact)",
    table(
      [
        "dataset",
        "sample",
        "setting",
        "k",
        "subset judged",
        "exact",
        "near-exact",
        "contaminated",
        "whole sample: memorized / judged",
        "rate",
        "95% CI",
      ],
      report.contamination.map((row) => [
        row.dataset,
        sampleLabel(row),
        row.setting,
        row.shots,
        row.subsetJudged,
        row.exact,
        row.nearExact,
        row.contaminated ? "yes" : "no",
        `${row.memorizedInstances} / ${row.instances}`,
        pct(row.rate),
        interval(row.ciLow, row.ciHigh),
      ]),
    ),
    "## Data Contamination Quiz (bias detector, then the original at each letter; range over the non-preferred letters)",
    (report.quiz ?? []).length === 0
      ? "No quiz in this experiment (methods: QUIZ)."
      : table(
          [
            "dataset",
            "sample",
            "generator",
            "n",
            "detector A/B/C/D/E",
            "non-preferred",
            "hits A/B/C/D",
            "range",
            "kappa",
            "options given up",
            "original among options",
            "notes",
          ],
          (report.quiz ?? []).map((row) => [
            row.dataset,
            sampleLabel(row),
            `${row.generatorProvider}/${row.generatorModel}`,
            row.instances,
            row.bias.join("/"),
            row.nonPreferred.join(", "),
            row.compensators.map((compensator) => compensator.hits).join("/"),
            row.lower === null ? "" : `[${pct(row.lower)}, ${pct(row.upper)}]`,
            num(row.kappa),
            row.optionsGivenUp,
            row.originalAmongOptions,
            row.notes.join("; "),
          ]),
        ),
    "## Contamination summary (each method's evidence side by side; the verdict is replication's test)",
    (report.contaminationSummary ?? []).length === 0
      ? "No method's results yet."
      : table(
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
          ],
          (report.contaminationSummary ?? []).map((row) => [
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
          ]),
        ),
    "What each method cannot tell: the replication verdict tests memorization above the no-memory floor on " +
      "non-trivial targets and bounds contamination from below (a model that memorized but does not recite, or " +
      "whose memorized targets are trivial or within the floor, is missed); Time Travel's rule is not a test, its " +
      "false-positive rate is beside it; Algorithm 1 shows that naming the dataset helps, not how much was seen " +
      "(BLEURT-20 is not available here); the quiz's range depends on its generated options and has no error rate; " +
      "the logprob scores see what a model will not recite but need prompt log-probabilities, and decide only " +
      "against a control dataset (or describe a labelled calibration). The API's contaminationSummary carries each " +
      "in full.",
    "## Logprob calibration (members against non-members, per score; ROC AUC with Hanley-McNeil's 95% interval)",
    (report.logprobCalibration ?? []).length === 0
      ? "No labelled logprob study in this experiment (methods: LOGPROB with membership labels)."
      : table(
          ["group", "score", "members", "non-members", "AUC", "TPR at 1% FPR", "TPR at 5% FPR"],
          (report.logprobCalibration ?? []).map((row) => [
            row.group,
            row.score,
            row.members,
            row.nonMembers,
            `${num(row.auc)} ${interval(row.aucLow, row.aucHigh)}`,
            pct(row.tprAt1PercentFpr),
            pct(row.tprAt5PercentFpr),
          ]),
        ),
    "## Human review (each reviewer's latest verdict; the effective verdict is the reviewers' majority)",
    report.review
      ? table(
          [
            "reviewed",
            "between reviewers",
            "reviewers",
            "items",
            "kappa",
            "kappa (memorized or not)",
            "unanimous",
            "judge vs majority: pairs",
            "agreement",
            "kappa",
            "kappa (memorized or not)",
          ],
          [
            [
              report.review.reviewed,
              report.review.reviewers.statistic === "NONE"
                ? "none reviewed twice"
                : report.review.reviewers.statistic === "COHEN"
                  ? "Cohen"
                  : "Fleiss",
              report.review.reviewers.reviewers.join(", "),
              report.review.reviewers.items,
              num(report.review.reviewers.kappa),
              num(report.review.reviewers.kappaBinary),
              pct(report.review.reviewers.percentAgreement),
              report.review.judgeVsHumanN,
              pct(report.review.judgeVsHumanAgreement),
              num(report.review.judgeVsHumanKappa),
              num(report.review.judgeVsHumanKappaBinary),
            ],
          ],
        )
      : "No completion has been reviewed.",
    "",
  ].join("\n\n");
}

/** The report's first lines: which experiment, provider, model (asked and reported), templates and judges. */
function logprobCell(evidence: StudyReport["contaminationSummary"][number]["logprob"]): string {
  if (!evidence) return "not run";
  const scored = evidence.scores.find((score) => score.score === "minK")?.instances ?? 0;
  const test = evidence.tests.find((t) => t.score === "minK");
  if (test && evidence.verdict)
    return `${verdictWord(evidence.verdict)} (AUC ${num(test.auc)} against ${test.controlDataset}, p ${num(test.pValue)}; n=${test.instances}/${test.controlInstances})`;
  if (evidence.member !== null)
    return `${evidence.member ? "member" : "non-member"} (labelled; ${scored} scored): see the calibration`;
  return `${scored} scored; no control, no verdict`;
}

function subjectLines(report: StudyReport): string {
  const subject = report.subject;
  if (!subject) return `Experiment ${report.experimentId}.`;
  return [
    `- experiment: ${subject.experimentName} (${report.experimentId})`,
    `- provider and model: ${subject.provider} / ${subject.requestedModel} (reported: ${subject.reportedModels.join(", ") || "none yet"})`,
    `- templates: ${subject.templateVersions.join(", ") || "none"}`,
    `- judges: ${subject.judges.join(", ") || "none"}`,
  ].join("\n");
}

/** A comparison as Markdown: which experiments (models), then each pair's cells, paired, with Holm's p. */
export function comparisonMarkdown(comparison: ExperimentComparison): string {
  const name = new Map(
    comparison.experiments.map((e) => [
      e.experimentId,
      `${e.subject.experimentName} (${e.subject.provider}/${e.subject.requestedModel})`,
    ]),
  );
  return [
    "# Experiments compared",
    comparison.experiments
      .map(
        (e) =>
          `- ${e.experimentId}: ${e.subject.experimentName}, ${e.subject.provider} / ${e.subject.requestedModel} (reported: ${e.subject.reportedModels.join(", ") || "none yet"})`,
      )
      .join("\n"),
    `Datasets every experiment ran: ${comparison.datasets.join(", ") || "none"}.`,
    ...comparison.warnings.map((warning) => `**Warning:** ${warning}`),
    "## Cell by cell, on the instances both ran (McNemar)",
    table(
      [
        "A",
        "B",
        "dataset",
        "kind",
        "setting",
        "k",
        "measure",
        "pairs",
        "rate A",
        "rate B",
        "A - B",
        "p",
        "p (Holm)",
      ],
      comparison.rows.map((row) => [
        name.get(row.experimentA) ?? row.experimentA,
        name.get(row.experimentB) ?? row.experimentB,
        row.dataset,
        row.kind,
        row.setting ?? "",
        row.shots,
        row.measure ?? "",
        row.pairs,
        pct(row.rateA),
        pct(row.rateB),
        pct(row.difference),
        pValue(row.pValue),
        pValue(row.pValueHolm),
      ]),
    ),
    `Multiple comparisons: ${comparison.multipleComparisons}`,
    "",
  ].join("\n\n");
}
