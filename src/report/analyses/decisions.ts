// The report's first page: one decision per sample and method, in words, with the error rate of a model without
// memory, what the method could have seen (its minimum detectable rate), the no-memory floor and the headline rate
// with its bounds. Read from the contamination summary; it decides nothing of its own. Pure.
//
// The input is described here by the fields it reads (structurally), so this file imports no table.

import { appendTo } from "../../common/collections";
import { ContaminationVerdict } from "../../study/contamination-verdict";
import { logprobLosses } from "./logprob";
import { shortPercent } from "./verdict";

/** The methods a decision can come from, in the order the report lists them. */
export const DECISION_METHODS = [
  "replication",
  "time-travel",
  "guided-general",
  "quiz",
  "logprob",
  "cdd",
  "ngram-coverage",
  "codec",
  "ts-guessing",
] as const;
export type DecisionMethod = (typeof DECISION_METHODS)[number];

/** One method's decision on one sample. */
export interface Decision {
  dataset: string;
  split: string | null;
  sampleId: string | null;
  sampleName: string | null;
  sampleSeed: string | null;
  method: DecisionMethod;
  /** The method's name as the report writes it. */
  methodName: string;
  /** The verdict of a method that tests (replication, LOGPROB); null for a rule, a comparison or a range. */
  verdict: ContaminationVerdict | null;
  /** The decision in a few words: "Contaminated", "No evidence above 5.8%", "Rule met", "Range [4%, 9%]". */
  decision: string;
  /** What it means, in a sentence a reader can quote. */
  meaning: string;
  /** How often a model with no memory gets this method's positive call; null where the method has none. */
  errorRate: number | null;
  /** What errorRate is: "the test's level (at most)", "measured on this sample's floor", or why there is none. */
  errorRateBasis: string;
  /** The smallest rate the method detects with 80% power; null where it has none or cannot reject. */
  minimumDetectableRate: number | null;
  /** The no-memory floor: the share of judged instances a no-memory answer already matches. */
  floorRate: number | null;
  /** The headline rate this decision rests on, with its 95% bounds, and what it counts. */
  rate: number | null;
  rateLow: number | null;
  rateHigh: number | null;
  rateLabel: string;
  /** Where this method and the verdict disagree, why; empty otherwise. */
  note: string;
}

/** The contamination summary's fields a decision reads. */
export interface DecisionSource {
  dataset: string;
  split: string | null;
  sampleId: string | null;
  sampleName: string | null;
  sampleSeed: string | null;
  timeTravel: {
    shots: number;
    subsetJudged: number;
    exact: number;
    nearExact: number;
    contaminated: boolean;
    pool: number;
    falsePositiveRate: number | null;
  } | null;
  replication: {
    shots: number;
    instances: number;
    floorRate: number | null;
    aboveFloor: number;
    aboveFloorRate: number | null;
    aboveFloorCiLow: number | null;
    aboveFloorCiHigh: number | null;
    verdict: ContaminationVerdict;
    alpha: number;
    allowance: number;
    pValue: number | null;
    verdictShots: number | null;
    minimumDetectableRate: number | null;
    reason: string;
    tests: readonly { shots: number; eligible: number; aboveFloor: number; controlEligible: number | null }[];
  } | null;
  guidedGeneral: {
    shots: number;
    instances: number;
    guidedMean: number;
    generalMean: number;
    pValuePaired: number | null;
    significant: boolean;
  } | null;
  quiz: {
    range: { lower: number | null; upper: number | null; kappa: number | null; instances: number };
  } | null;
  logprob: {
    verdict: ContaminationVerdict | null;
    alpha: number;
    member: boolean | null;
    /** Its runs' items: how many were scored, and how many and why not. */
    runs?: readonly {
      expected: number;
      scored: number;
      unusable: number;
      failed: number;
      notTried: number;
      reasons: readonly { reason: string; items: number }[];
    }[];
    tests: readonly {
      score: string;
      controlDataset: string;
      instances: number;
      controlInstances: number;
      auc: number | null;
      pValue: number | null;
    }[];
  } | null;
  ngramCoverage?: {
    verdict: ContaminationVerdict | null;
    alpha: number;
    n: number;
    instances: number;
    notCompared: number;
    meanCoverage: number | null;
    test: {
      controlDataset: string;
      instances: number;
      controlInstances: number;
      controlMeanCoverage: number | null;
      auc: number | null;
      pValue: number | null;
    } | null;
  } | null;
  tsGuessing?: {
    verdict: ContaminationVerdict | null;
    alpha: number;
    instances: number;
    notCompared: number;
    matched: number;
    matchRate: number | null;
    matchRateLow: number | null;
    matchRateHigh: number | null;
    test: {
      controlDataset: string;
      instances: number;
      controlInstances: number;
      controlMatchRate: number | null;
      auc: number | null;
      pValue: number | null;
    } | null;
  } | null;
  codec?: {
    verdict: ContaminationVerdict | null;
    alpha: number;
    instances: number;
    notCompared: number;
    dropped: number;
    dropShare: number | null;
    dropShareLow: number | null;
    dropShareHigh: number | null;
    test: {
      controlDataset: string;
      instances: number;
      controlInstances: number;
      controlDropShare: number | null;
      auc: number | null;
      pValue: number | null;
    } | null;
  } | null;
  cdd?: {
    verdict: ContaminationVerdict | null;
    alpha: number;
    instances: number;
    notCompared: number;
    leaked: number;
    leakShare: number | null;
    leakShareLow: number | null;
    leakShareHigh: number | null;
    xi: number;
    test: {
      controlDataset: string;
      instances: number;
      controlInstances: number;
      controlLeakShare: number | null;
      auc: number | null;
      pValue: number | null;
    } | null;
  } | null;
}

/** The level Algorithm 1's paired test is read at (analyses/guided-general.ts). */
export interface DecisionLevels {
  guidedGeneralAlpha: number;
}

const pct = (value: number | null | undefined) =>
  value === null || value === undefined ? "n/a" : shortPercent(value);

const VERDICT_WORDS: Record<ContaminationVerdict, string> = {
  [ContaminationVerdict.CONTAMINATED]: "Contaminated",
  [ContaminationVerdict.NO_EVIDENCE]: "No evidence",
  [ContaminationVerdict.CANNOT_TELL]: "Cannot tell",
};

/** Each sample's decisions, method by method (a method not run on a sample has no decision). */
export function studyDecisions(rows: readonly DecisionSource[], levels: DecisionLevels): Decision[] {
  return rows.flatMap((row) => {
    const base = {
      dataset: row.dataset,
      split: row.split,
      sampleId: row.sampleId,
      sampleName: row.sampleName,
      sampleSeed: row.sampleSeed,
    };
    const decisions: Decision[] = [];
    const replication = row.replication;
    if (replication) decisions.push({ ...base, ...replicationDecision(replication) });
    if (row.timeTravel) decisions.push({ ...base, ...timeTravelDecision(row.timeTravel, replication) });
    if (row.guidedGeneral) decisions.push({ ...base, ...guidedGeneralDecision(row.guidedGeneral, levels) });
    if (row.quiz) decisions.push({ ...base, ...quizDecision(row.quiz.range) });
    if (row.logprob) decisions.push({ ...base, ...logprobDecision(row.logprob) });
    if (row.cdd) decisions.push({ ...base, ...cddDecision(row.cdd) });
    if (row.ngramCoverage) decisions.push({ ...base, ...ngramDecision(row.ngramCoverage) });
    if (row.codec) decisions.push({ ...base, ...codecDecision(row.codec) });
    if (row.tsGuessing) decisions.push({ ...base, ...guessingDecision(row.tsGuessing) });
    return decisions;
  });
}

type Own = Omit<Decision, "dataset" | "split" | "sampleId" | "sampleName" | "sampleSeed">;

function replicationDecision(replication: NonNullable<DecisionSource["replication"]>): Own {
  const mdr = replication.minimumDetectableRate;
  const best = replication.tests.find((test) => test.shots === replication.verdictShots) ?? null;
  const control = replication.tests.some((test) => test.controlEligible !== null)
    ? " and above the control"
    : "";
  let decision: string;
  let meaning: string;
  switch (replication.verdict) {
    case ContaminationVerdict.CONTAMINATED:
      decision = "Contaminated";
      meaning =
        `The model recites more instances than a model without memory can: ` +
        (best ? `${best.aboveFloor} of ${best.eligible} eligible instances at k=${best.shots}, ` : "") +
        `above the no-memory floor, a ${pct(replication.allowance)} allowance${control}.`;
      break;
    case ContaminationVerdict.NO_EVIDENCE:
      decision = `No evidence above ${pct(mdr)}`;
      meaning =
        `No evidence of recitation above ${pct(mdr)} of instances: a rate of ${pct(mdr)} or more would be found ` +
        `80% of the time, a lower one can go unseen. This is not a finding that the data are clean.`;
      break;
    default:
      decision = "Cannot tell";
      meaning =
        `The sample cannot show the rates the study is about: ` +
        (mdr === null ? "no count could reject" : `the test needs a rate of ${pct(mdr)} for 80% power`) +
        `. ${capitalise(replication.reason)}.`;
  }
  return {
    method: "replication",
    methodName: "Replication above the no-memory floor (the verdict)",
    verdict: replication.verdict,
    decision,
    meaning,
    errorRate: replication.alpha,
    errorRateBasis: `the test's level, for a no-memory model at the ${pct(replication.allowance)} allowance`,
    minimumDetectableRate: mdr,
    floorRate: replication.floorRate,
    rate: replication.aboveFloorRate,
    rateLow: replication.aboveFloorCiLow,
    rateHigh: replication.aboveFloorCiHigh,
    rateLabel: `memorized above the floor, guided instruction at k=${replication.shots} (${replication.instances} instances)`,
    note: "",
  };
}

function timeTravelDecision(
  rule: NonNullable<DecisionSource["timeTravel"]>,
  replication: DecisionSource["replication"],
): Own {
  let note = "";
  const verdict = replication?.verdict;
  const best = replication?.tests.find((test) => test.shots === replication.verdictShots) ?? null;
  const eligible = best?.eligible ?? Math.max(0, ...(replication?.tests.map((test) => test.eligible) ?? [0]));
  if (rule.contaminated && verdict && verdict !== ContaminationVerdict.CONTAMINATED)
    note =
      `The rule reads ${rule.subsetJudged} drawn instances and fires on one exact or two near-exact, which a model ` +
      `without memory reaches ${pct(rule.falsePositiveRate)} of the time here; the verdict tests all ${eligible} ` +
      `eligible instances against the floor and the allowance and finds no excess.`;
  else if (!rule.contaminated && verdict === ContaminationVerdict.CONTAMINATED)
    note =
      `The rule reads only ${rule.subsetJudged} drawn instances; the verdict reads all ${eligible} eligible ones. ` +
      `At the rate recited here (${pct(replication?.aboveFloorRate)} above the floor) a draw of ` +
      `${rule.subsetJudged} often holds no exact and fewer than two near-exact replications.`;
  return {
    method: "time-travel",
    methodName: "Time Travel's rule (the paper's, on 10 instances)",
    verdict: null,
    decision: rule.contaminated ? "Rule met" : "Rule not met",
    meaning:
      `${rule.exact} exact and ${rule.nearExact} near-exact of ${rule.subsetJudged} instances drawn from ` +
      `${rule.pool} non-trivial ones at k=${rule.shots}; the rule asks for 1 exact or 2 near-exact. It is a rule, ` +
      `not a test.`,
    errorRate: rule.falsePositiveRate,
    errorRateBasis: "measured on this sample's no-memory floor",
    minimumDetectableRate: null,
    floorRate: null,
    rate: rule.subsetJudged ? (rule.exact + rule.nearExact) / rule.subsetJudged : null,
    rateLow: null,
    rateHigh: null,
    rateLabel: `exact or near-exact among the ${rule.subsetJudged} drawn instances`,
    note,
  };
}

function guidedGeneralDecision(
  comparison: NonNullable<DecisionSource["guidedGeneral"]>,
  levels: DecisionLevels,
): Own {
  return {
    method: "guided-general",
    methodName: "Algorithm 1: guided vs general instruction (ROUGE-L)",
    verdict: null,
    decision: comparison.significant ? "Significant" : "Not significant",
    meaning:
      `Naming the dataset ${comparison.significant ? "raises" : "does not measurably raise"} the overlap with ` +
      `the reference (ROUGE-L ${comparison.guidedMean.toFixed(3)} guided vs ${comparison.generalMean.toFixed(3)} ` +
      `general over ${comparison.instances} instances at k=${comparison.shots}, paired p ` +
      `${formatP(comparison.pValuePaired)}). It shows that ` +
      `the name helps, not how much was seen.`,
    errorRate: levels.guidedGeneralAlpha,
    errorRateBasis:
      "the paired test's level (a model whose two instructions score alike is significant this often)",
    minimumDetectableRate: null,
    floorRate: null,
    rate: null,
    rateLow: null,
    rateHigh: null,
    rateLabel: "",
    note: "",
  };
}

function quizDecision(range: NonNullable<DecisionSource["quiz"]>["range"]): Own {
  const ready = range.lower !== null && range.upper !== null;
  return {
    method: "quiz",
    methodName: "Data Contamination Quiz",
    verdict: null,
    decision: ready ? `Range [${pct(range.lower)}, ${pct(range.upper)}]` : "No range yet",
    meaning: ready
      ? `The share of ${range.instances} instances the model picks the original text among its perturbations: ` +
        `between ${pct(range.lower)} and ${pct(range.upper)} (the authors' bounds; kappa ${range.kappa === null ? "n/a" : range.kappa.toFixed(3)}).`
      : "The quiz has not answered enough instances for a range.",
    errorRate: null,
    errorRateBasis: "none: the quiz gives a range, not a test",
    minimumDetectableRate: null,
    floorRate: null,
    rate: null,
    rateLow: ready ? range.lower : null,
    rateHigh: ready ? range.upper : null,
    rateLabel: ready ? "the quiz's range" : "",
    note: "",
  };
}

function logprobDecision(logprob: NonNullable<DecisionSource["logprob"]>): Own {
  const decisive = logprob.tests.find((test) => test.score === "minK") ?? null;
  const decision = logprob.verdict
    ? VERDICT_WORDS[logprob.verdict]
    : logprob.member !== null
      ? `Calibration (labelled ${logprob.member ? "member" : "non-member"})`
      : "Scores only";
  const meaning = logprob.verdict
    ? decisive
      ? `Min-K% of ${decisive.instances} texts against ${decisive.controlInstances} ` +
        `of the control ${decisive.controlDataset}: AUC ${decisive.auc === null ? "n/a" : decisive.auc.toFixed(3)}, ` +
        `one-sided p ${formatP(decisive.pValue)}.`
      : "No Min-K% test against a control."
    : logprob.member !== null
      ? "A dataset with known membership calibrates the scores (AUC, TPR at low FPR); it is not tested."
      : "Per-text scores without a control dataset to test against: no decision.";
  return {
    method: "logprob",
    methodName: "Token log-probabilities (Min-K% against the control)",
    verdict: logprob.verdict,
    decision,
    meaning,
    errorRate: logprob.verdict ? logprob.alpha : null,
    errorRateBasis: logprob.verdict
      ? "the test's level, for a model that scores the sample like its control"
      : "none: no test ran",
    minimumDetectableRate: null,
    floorRate: null,
    rate: decisive?.auc ?? null,
    rateLow: null,
    rateHigh: null,
    rateLabel: decisive ? "Min-K% AUC against the control" : "",
    note: logprobLost(logprob.runs ?? []),
  };
}

function cddDecision(cdd: NonNullable<DecisionSource["cdd"]>): Own {
  const test = cdd.test;
  const share = `${cdd.leaked} of ${cdd.instances} instances leaked by the authors' rule (peakedness above ${cdd.xi})`;
  return {
    method: "cdd",
    methodName: "CDD: sampled continuations' peakedness (against the control)",
    verdict: cdd.verdict,
    decision: cdd.verdict ? VERDICT_WORDS[cdd.verdict] : "Share leaked only",
    meaning:
      test && cdd.verdict
        ? `Peakedness of ${test.instances} instances against ${test.controlInstances} of the control ` +
          `${test.controlDataset}: AUC ${test.auc === null ? "n/a" : test.auc.toFixed(3)}, one-sided p ` +
          `${formatP(test.pValue)}; ${share}, the control's ${pct(test.controlLeakShare)}.`
        : `${capitalise(share)}; without a control dataset to test against, no decision (a model that answers ` +
          "the same way every time is leaked on every instance by the rule).",
    errorRate: cdd.verdict ? cdd.alpha : null,
    errorRateBasis: cdd.verdict
      ? "the test's level, for a model as peaked on the sample as on its control"
      : "none: no test ran (the rule alone calls every constant model leaked)",
    minimumDetectableRate: null,
    floorRate: null,
    rate: cdd.leakShare,
    rateLow: cdd.leakShareLow,
    rateHigh: cdd.leakShareHigh,
    rateLabel: "leaked by the authors' rule",
    note:
      cdd.notCompared > 0
        ? `${cdd.notCompared} instance(s) could not be compared (failed or missing items).`
        : "",
  };
}

function ngramDecision(ngram: NonNullable<DecisionSource["ngramCoverage"]>): Own {
  const test = ngram.test;
  return {
    method: "ngram-coverage",
    methodName: `N-gram coverage of the true continuation (n=${ngram.n}, against the control)`,
    verdict: ngram.verdict,
    decision: ngram.verdict ? VERDICT_WORDS[ngram.verdict] : "Coverage only",
    meaning:
      test && ngram.verdict
        ? `The best sample's coverage of ${test.instances} instances against ${test.controlInstances} of the ` +
          `control ${test.controlDataset}: AUC ${test.auc === null ? "n/a" : test.auc.toFixed(3)}, one-sided p ` +
          `${formatP(test.pValue)}; mean ${pct(ngram.meanCoverage)}, the control's ${pct(test.controlMeanCoverage)}.`
        : `Mean coverage ${pct(ngram.meanCoverage)} of ${ngram.instances} instances; without a control dataset to ` +
          "test against, no decision (a continuation the task makes predictable is covered without memory).",
    errorRate: ngram.verdict ? ngram.alpha : null,
    errorRateBasis: ngram.verdict
      ? "the test's level, for a model that covers the sample as it covers its control"
      : "none: no test ran",
    minimumDetectableRate: null,
    floorRate: null,
    rate: ngram.meanCoverage,
    rateLow: null,
    rateHigh: null,
    rateLabel: "mean coverage of the true continuation",
    note:
      ngram.notCompared > 0
        ? `${ngram.notCompared} instance(s) could not be compared (failed or missing items).`
        : "",
  };
}

function codecDecision(codec: NonNullable<DecisionSource["codec"]>): Own {
  const test = codec.test;
  const share = `${codec.dropped} of ${codec.instances} instances lose confidence with another instance in context`;
  return {
    method: "codec",
    methodName: "CoDeC: confidence with and without context (against the control)",
    verdict: codec.verdict,
    decision: codec.verdict ? VERDICT_WORDS[codec.verdict] : "Share only",
    meaning:
      test && codec.verdict
        ? `Drops of confidence of ${test.instances} instances against ${test.controlInstances} of the control ` +
          `${test.controlDataset}: AUC ${test.auc === null ? "n/a" : test.auc.toFixed(3)}, one-sided p ` +
          `${formatP(test.pValue)}; ${share}, the control's ${pct(test.controlDropShare)}.`
        : `${capitalise(share)}; without a control dataset to test against, no decision (how much instances of ` +
          "one dataset help each other depends on the dataset, not only on memory).",
    errorRate: codec.verdict ? codec.alpha : null,
    errorRateBasis: codec.verdict
      ? "the test's level, for a model whose confidence moves on the sample as on its control"
      : "none: no test ran",
    minimumDetectableRate: null,
    floorRate: null,
    rate: codec.dropShare,
    rateLow: codec.dropShareLow,
    rateHigh: codec.dropShareHigh,
    rateLabel: "lose confidence with context (the authors' score)",
    note:
      codec.notCompared > 0
        ? `${codec.notCompared} instance(s) could not be compared (a pass failed or is missing).`
        : "",
  };
}

function guessingDecision(guessing: NonNullable<DecisionSource["tsGuessing"]>): Own {
  const test = guessing.test;
  const rate = `${guessing.matched} of ${guessing.instances} masked words guessed exactly`;
  return {
    method: "ts-guessing",
    methodName: "TS-Guessing: a masked word asked for (against the control)",
    verdict: guessing.verdict,
    decision: guessing.verdict ? VERDICT_WORDS[guessing.verdict] : "Rate only",
    meaning:
      test && guessing.verdict
        ? `Exact matches of ${test.instances} instances against ${test.controlInstances} of the control ` +
          `${test.controlDataset}: AUC ${test.auc === null ? "n/a" : test.auc.toFixed(3)}, one-sided p ` +
          `${formatP(test.pValue)}; ${rate}, the control's ${pct(test.controlMatchRate)}.`
        : `${capitalise(rate)}; without a control dataset to test against, no decision (a word the rest of the ` +
          "text implies is guessed without memory).",
    errorRate: guessing.verdict ? guessing.alpha : null,
    errorRateBasis: guessing.verdict
      ? "the test's level, for a model that guesses the sample's words as often as its control's"
      : "none: no test ran",
    minimumDetectableRate: null,
    floorRate: null,
    rate: guessing.matchRate,
    rateLow: guessing.matchRateLow,
    rateHigh: guessing.matchRateHigh,
    rateLabel: "masked words guessed exactly (the authors' rate)",
    note:
      guessing.notCompared > 0
        ? `${guessing.notCompared} instance(s) not asked or not answered (no word to mask, or a failed call).`
        : "",
  };
}

/** A decision's direction: it finds contamination, finds none, or decides nothing. */
function direction(decision: Decision): "positive" | "negative" | null {
  if (decision.verdict === ContaminationVerdict.CONTAMINATED) return "positive";
  if (decision.verdict === ContaminationVerdict.NO_EVIDENCE) return "negative";
  if (decision.verdict !== null) return null;
  if (decision.method === "time-travel") return decision.decision === "Rule met" ? "positive" : "negative";
  if (decision.method === "guided-general")
    return decision.decision === "Significant" ? "positive" : "negative";
  return null;
}

/**
 * Which methods agree on each sample, in a sentence: those that find contamination, those that find none, and
 * those that decide nothing (a range, scores without a control, too few instances). One line per sample.
 */
export function methodAgreement(
  decisions: readonly Decision[],
): { sample: string; methods: number; sentence: string }[] {
  const bySample = new Map<string, Decision[]>();
  for (const decision of decisions) {
    const key = `${decision.dataset} ${decision.sampleId ?? ""}`;
    appendTo(bySample, key, decision);
  }
  return [...bySample.values()].map((list) => {
    const names = (want: "positive" | "negative" | null) =>
      list.filter((decision) => direction(decision) === want).map((decision) => decision.method);
    const positive = names("positive");
    const negative = names("negative");
    const open = names(null);
    const parts = [
      positive.length > 0 ? `contamination found by ${positive.join(", ")}` : "",
      negative.length > 0 ? `none found by ${negative.join(", ")}` : "",
      open.length > 0 ? `no decision from ${open.join(", ")}` : "",
    ].filter(Boolean);
    const agree =
      positive.length > 0 && negative.length > 0
        ? "the methods disagree"
        : positive.length + negative.length > 1
          ? "the methods that decide agree"
          : "one method decides";
    return {
      sample: list[0].sampleName ?? list[0].sampleId ?? list[0].dataset,
      methods: list.length,
      sentence: `${list[0].dataset}: ${agree}: ${parts.join("; ")}.`,
    };
  });
}

/** "12 of 40 items were not scored (...)": the items a LOGPROB decision rests without; empty when none. */
function logprobLost(runs: NonNullable<NonNullable<DecisionSource["logprob"]>["runs"]>): string {
  const losses = logprobLosses(runs);
  if (losses.lost === 0) return "";
  return (
    `${losses.lost} of ${losses.expected} items were not scored and no score is made of them` +
    (losses.reason !== null ? ` (the commonest reason: ${losses.reason})` : "") +
    "."
  );
}

const formatP = (value: number | null) =>
  value === null
    ? "n/a"
    : value === 0
      ? "< 0.0001"
      : value < 0.001
        ? value.toExponential(1)
        : value.toFixed(3);

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
