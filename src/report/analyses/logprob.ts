// The LOGPROB method's evidence: each sample's membership scores under the examined model, a calibration where the
// lab labelled members and non-members, and a test against the dataset's control otherwise. Pure.

import { appendTo } from "../../common/collections";
import { membershipScores, readTokenLogprobs, SCORE_NAMES, ScoreName, Scores } from "../../logprob/scores";
import { aucInterval, mannWhitneyGreater, rocAuc, tprAtFpr } from "../../statistics/membership";
import { ContaminationVerdict } from "../../study/contamination-verdict";
import type { LogprobCalibrationRow, LogprobControlTest, LogprobEvidence } from "../rows/logprob";
import { SampleInfo } from "./rows";

/** One scored instance text: a LOGPROB completion with the text it scored. */
export interface ScoredItem {
  runId: string;
  sampleId: string;
  provider: string;
  model: string;
  /** The sampled instance. */
  item: string;
  /** The text scored (as the run's template wrote it). */
  text: string;
  /** The completion's stored payload. */
  output: string | null;
}

/** A LOGPROB run as the report accounts for it: its counts and why its failed items failed. */
export interface LogprobRunState {
  runId: string;
  sampleId: string;
  provider: string;
  model: string;
  status: string;
  expected: number;
  done: number;
  failed: number;
  lastError: string | null;
  /** The commonest reasons its failed items give, with how many gave each. */
  reasons: { reason: string | null; items: number }[];
}

/** What a LOGPROB run gave: scored, answered but not scorable, failed (and why), never tried. */
export interface LogprobRunOutcome {
  runId: string;
  status: string;
  expected: number;
  scored: number;
  unusable: number;
  failed: number;
  notTried: number;
  reasons: { reason: string; items: number }[];
  lastError: string | null;
}

/** What a sample's LOGPROB runs lost: items failed, answered but not scorable, never tried, and the commonest reason. */
export function logprobLosses(
  runs: readonly {
    expected: number;
    failed: number;
    unusable: number;
    notTried: number;
    reasons: readonly { reason: string; items: number }[];
  }[],
): {
  expected: number;
  failed: number;
  unusable: number;
  notTried: number;
  lost: number;
  reason: string | null;
} {
  const total = (count: (run: (typeof runs)[number]) => number) =>
    runs.reduce((sum, run) => sum + count(run), 0);
  const failed = total((run) => run.failed);
  const unusable = total((run) => run.unusable);
  const notTried = total((run) => run.notTried);
  const reasons = runs.flatMap((run) => run.reasons).sort((a, b) => b.items - a.items);
  return {
    expected: total((run) => run.expected),
    failed,
    unusable,
    notTried,
    lost: failed + unusable + notTried,
    reason: reasons[0]?.reason ?? null,
  };
}

export interface MembershipLabel {
  sampleId: string;
  member: boolean;
  group?: string;
}

/** The score a verdict against a control is decided by, declared before any data: Min-K% (Shi et al. 2024). */
export const VERDICT_SCORE: ScoreName = "minK";
export const LOGPROB_ALPHA = 0.05;
/** Fewer instances on either side than this and the test cannot tell. */
export const LOGPROB_MIN_INSTANCES = 10;

const CANNOT_SEE =
  "It reads how likely the model finds each text, so it sees memorization the model will not recite; it cannot " +
  "see a model trained on a paraphrase or a translation of the data, tells a text the model saw from one that is " +
  "merely typical of what it saw only through the control (or the labels), and needs prompt log-probabilities " +
  "from the provider (open-weight models served by vLLM and the like; not chat-only APIs).";

/**
 * Per sample of the experiment with LOGPROB runs of the examined model: its scores; with membership labels, the
 * calibration of its label group (members against non-members, per score); with a control dataset in the
 * experiment, each score against the control's (one-sided Mann-Whitney U) and the verdict by Min-K%.
 */
export function logprobEvidence(
  items: readonly ScoredItem[],
  examined: { provider: string; model: string },
  reference: { provider: string; model: string } | null,
  labels: readonly MembershipLabel[],
  samples: ReadonlyMap<string, SampleInfo>,
  runs: readonly LogprobRunState[] = [],
): Map<string, LogprobEvidence> {
  const isExamined = (item: { provider: string; model: string }) =>
    item.provider === examined.provider && item.model === examined.model;
  const referenceOf = new Map<string, ScoredItem>();
  if (reference)
    for (const item of items)
      if (item.provider === reference.provider && item.model === reference.model)
        referenceOf.set(`${item.sampleId} ${item.item}`, item);
  const scores = new Map<string, Scores[]>();
  const runIds = new Map<string, Set<string>>();
  const scoredOf = new Map<string, number>();
  const unusableOf = new Map<string, number>();
  const addRun = (sampleId: string, runId: string) => {
    const ids = runIds.get(sampleId) ?? new Set<string>();
    ids.add(runId);
    runIds.set(sampleId, ids);
  };
  // A run whose items all failed has no scored item, and is still the sample's evidence: of failure.
  for (const run of runs) if (isExamined(run)) addRun(run.sampleId, run.runId);
  for (const item of items) {
    if (!isExamined(item)) continue;
    addRun(item.sampleId, item.runId);
    const payload = readTokenLogprobs(item.output);
    if (!payload || payload.logprobs.length === 0) {
      unusableOf.set(item.runId, (unusableOf.get(item.runId) ?? 0) + 1);
      continue;
    }
    scoredOf.set(item.runId, (scoredOf.get(item.runId) ?? 0) + 1);
    const referenceItem = referenceOf.get(`${item.sampleId} ${item.item}`);
    const referencePayload = referenceItem ? readTokenLogprobs(referenceItem.output) : null;
    const list = scores.get(item.sampleId) ?? [];
    list.push(membershipScores(item.text, payload, referencePayload));
    scores.set(item.sampleId, list);
  }
  const values = (sampleIds: readonly string[], score: ScoreName) =>
    sampleIds.flatMap((id) =>
      (scores.get(id) ?? [])
        .map((s) => s[score])
        .filter((v): v is number => v !== null && Number.isFinite(v)),
    );
  const present = SCORE_NAMES.filter((score) => score !== "reference" || reference !== null);

  const labelOf = new Map(labels.map((label) => [label.sampleId, label]));
  const calibrations = new Map<string, LogprobCalibrationRow[]>();
  for (const group of new Set(labels.map((label) => label.group ?? "all"))) {
    const inGroup = labels.filter((label) => (label.group ?? "all") === group);
    const members = inGroup.filter((label) => label.member).map((label) => label.sampleId);
    const nonMembers = inGroup.filter((label) => !label.member).map((label) => label.sampleId);
    calibrations.set(
      group,
      present.map((score) => {
        const m = values(members, score);
        const n = values(nonMembers, score);
        const auc = rocAuc(m, n);
        const interval = auc === null ? null : aucInterval(auc, m.length, n.length);
        return {
          group,
          score,
          members: m.length,
          nonMembers: n.length,
          auc,
          aucLow: interval?.[0] ?? null,
          aucHigh: interval?.[1] ?? null,
          tprAt1PercentFpr: tprAtFpr(m, n, 0.01),
          tprAt5PercentFpr: tprAtFpr(m, n, 0.05),
        };
      }),
    );
  }

  const controlsOf = new Map<string, string[]>();
  for (const [sampleId, info] of samples) if (info.controlOf) appendTo(controlsOf, info.controlOf, sampleId);

  const evidence = new Map<string, LogprobEvidence>();
  for (const [sampleId, ids] of runIds) {
    const info = samples.get(sampleId);
    if (!info) continue;
    const label = labelOf.get(sampleId);
    const controls = (controlsOf.get(info.dataset) ?? []).filter((id) => id !== sampleId);
    const tests: LogprobControlTest[] =
      controls.length === 0
        ? []
        : present.map((score) => {
            const own = values([sampleId], score);
            const control = values(controls, score);
            return {
              score,
              controlDataset: samples.get(controls[0])?.dataset ?? "?",
              instances: own.length,
              controlInstances: control.length,
              auc: rocAuc(own, control),
              pValue: mannWhitneyGreater(own, control)?.pValue ?? null,
            };
          });
    const decisive = tests.find((test) => test.score === VERDICT_SCORE);
    const verdict = !decisive
      ? null
      : decisive.instances < LOGPROB_MIN_INSTANCES || decisive.controlInstances < LOGPROB_MIN_INSTANCES
        ? ContaminationVerdict.CANNOT_TELL
        : decisive.pValue !== null && decisive.pValue < LOGPROB_ALPHA
          ? ContaminationVerdict.CONTAMINATED
          : ContaminationVerdict.NO_EVIDENCE;
    const own = scores.get(sampleId) ?? [];
    const outcomes: LogprobRunOutcome[] = runs
      .filter((run) => ids.has(run.runId))
      .map((run) => ({
        runId: run.runId,
        status: run.status,
        expected: run.expected,
        scored: scoredOf.get(run.runId) ?? 0,
        unusable: unusableOf.get(run.runId) ?? 0,
        failed: run.failed,
        notTried: Math.max(0, run.expected - run.done - run.failed),
        reasons: run.reasons.map((reason) => ({
          reason: reason.reason ?? "no reason recorded",
          items: reason.items,
        })),
        lastError: run.lastError,
      }));
    const lost = outcomes.reduce((sum, run) => sum + run.unusable + run.failed + run.notTried, 0);
    const withoutPlusPlus =
      own.length > 0 && values([sampleId], "minKPlusPlus").length === 0
        ? "Min-K%++ has no value: the server returned no alternatives per position (promptLogprobs.top 0, or a " +
          "server that ignores it). "
        : "";
    evidence.set(sampleId, {
      runIds: [...ids].sort(),
      scores: present.map((score) => {
        const v = values([sampleId], score);
        return {
          score,
          instances: v.length,
          mean: v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length,
        };
      }),
      member: label ? label.member : null,
      calibration: label ? (calibrations.get(label.group ?? "all") ?? []) : [],
      tests,
      verdict,
      alpha: LOGPROB_ALPHA,
      runs: outcomes,
      cannotTell:
        `${own.length} instance(s) scored` +
        (lost > 0
          ? `, ${lost} not (failed, unusable or never tried: see runs; no score is made of them)`
          : "") +
        ". " +
        withoutPlusPlus +
        (decisive
          ? `The verdict tests Min-K% (k = 20%) of the sample against ${decisive.controlDataset}, one-sided at ` +
            `alpha ${LOGPROB_ALPHA}; the other scores' p-values are shown, not tested. `
          : label
            ? "Labelled: read the calibration (AUC, TPR at low FPR); no verdict is drawn from labels. "
            : "No control dataset in the experiment (a dataset marked controlOf this one): scores only, no verdict. ") +
        CANNOT_SEE,
    });
  }
  return evidence;
}

/** Every label group's calibration rows (the report's table). */
export function logprobCalibration(evidence: ReadonlyMap<string, LogprobEvidence>): LogprobCalibrationRow[] {
  const rows = new Map<string, LogprobCalibrationRow>();
  for (const row of [...evidence.values()].flatMap((e) => e.calibration))
    rows.set(`${row.group} ${row.score}`, row);
  return [...rows.values()];
}
