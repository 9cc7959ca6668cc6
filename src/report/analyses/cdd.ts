// The CDD method's evidence (Dong et al., ACL 2024): each instance's sampled continuations against its greedy
// one, the sample's share leaked by the authors' rule, and a test against the dataset's control. Pure.

import { appendTo } from "../../common/collections";
import { CDD_DEFAULTS, cddInstance } from "../../sampling/cdd";
import { wilsonInterval } from "../../statistics/intervals";
import type { CddEvidence, CddInstanceScore } from "../rows/cdd";
import {
  againstControl,
  controlSamplesOf,
  SAMPLING_MIN_INSTANCES,
  SAMPLING_TEST_ALPHA,
  samplingVerdict,
} from "./against-control";
import { SampleInfo } from "./rows";

/** One continuation of a CDD run: the greedy one (temperature 0) or a sample. */
export interface ContinuationItem {
  runId: string;
  sampleId: string;
  provider: string;
  model: string;
  /** The sampled instance. */
  item: string;
  temperature: number;
  /** The continuation: the extracted answer of a guided prompt, the raw text of a raw one. */
  text: string;
}

/** What a sample's CDD runs were asked: instances per sample and the prompt. */
export interface ContinuationRunState {
  runId: string;
  sampleId: string;
  provider: string;
  model: string;
  /** GUIDED or RAW. */
  prompt: string;
  /** Instances of the sample (the greedy run's items). */
  instances: number;
}

export interface CddThresholds {
  alpha: number;
  xi: number;
}

export const CDD_TEST_ALPHA = SAMPLING_TEST_ALPHA;
export const CDD_MIN_INSTANCES = SAMPLING_MIN_INSTANCES;

const CANNOT_SEE =
  "CDD reads only how peaked the model's samples are around its greedy answer: it needs sampling (temperature " +
  "above 0) and no log-probabilities, so it sees chat-only models; it cannot tell memorization from any other " +
  "reason to answer the same way every time (a model that answers a constant, copies its input or is simply " +
  "confident on the task is as peaked), which is why only the control decides; it cannot see a memorized instance " +
  "whose greedy answer is not its continuation, nor one the model no longer samples near.";

/**
 * Per sample of the experiment with CDD runs of the examined model: each instance's peakedness (the greedy
 * continuation against the samples), the share leaked at xi, and with a control dataset in the experiment, the
 * sample's peakedness against the control's (one-sided Mann-Whitney U) and the verdict at CDD_TEST_ALPHA.
 */
export function cddEvidence(
  items: readonly ContinuationItem[],
  examined: { provider: string; model: string },
  runs: readonly ContinuationRunState[],
  samples: ReadonlyMap<string, SampleInfo>,
  thresholds: CddThresholds = CDD_DEFAULTS,
): Map<string, CddEvidence> {
  const isExamined = (x: { provider: string; model: string }) =>
    x.provider === examined.provider && x.model === examined.model;
  const greedy = new Map<string, string>();
  const sampled = new Map<string, string[]>();
  const sampleOf = new Map<string, string>();
  for (const item of items) {
    if (!isExamined(item)) continue;
    sampleOf.set(item.item, item.sampleId);
    if (item.temperature <= 0) greedy.set(item.item, item.text);
    else appendTo(sampled, item.item, item.text);
  }
  const scores = new Map<string, CddInstanceScore[]>();
  for (const [item, text] of greedy) {
    const drawn = sampled.get(item) ?? [];
    if (drawn.length < 2) continue;
    const instance = cddInstance(text, drawn, thresholds)!;
    const sampleId = sampleOf.get(item)!;
    appendTo(scores, sampleId, {
      sampledInstanceId: item,
      peakedness: instance.peakedness,
      leaked: instance.leaked,
      samples: drawn.length,
    });
  }
  const runsOf = new Map<string, ContinuationRunState[]>();
  for (const run of runs) if (isExamined(run)) appendTo(runsOf, run.sampleId, run);
  const evidence = new Map<string, CddEvidence>();
  for (const [sampleId, own] of runsOf) {
    const info = samples.get(sampleId);
    if (!info) continue;
    const list = [...(scores.get(sampleId) ?? [])].sort((a, b) =>
      a.sampledInstanceId.localeCompare(b.sampledInstanceId, undefined, { numeric: true }),
    );
    const peaks = list.map((score) => score.peakedness);
    const controls = controlSamplesOf(sampleId, samples);
    const controlScores = controls.flatMap((id) => scores.get(id) ?? []);
    const compared = againstControl(
      peaks,
      controlScores.map((score) => score.peakedness),
      controls,
      samples,
    );
    const test = compared && {
      ...compared,
      controlLeakShare: share(controlScores.filter((score) => score.leaked).length, controlScores.length),
    };
    const verdict = samplingVerdict(compared);
    const leaked = list.filter((score) => score.leaked).length;
    const expected = Math.max(...own.map((run) => run.instances));
    const notCompared = Math.max(0, expected - list.length);
    const interval = wilsonInterval(leaked, list.length);
    evidence.set(sampleId, {
      runIds: own.map((run) => run.runId).sort(),
      prompt: own[0].prompt,
      instances: list.length,
      notCompared,
      samplesPerInstance:
        list.length === 0 ? null : list.reduce((sum, s) => sum + s.samples, 0) / list.length,
      leaked,
      leakShare: share(leaked, list.length),
      leakShareLow: interval?.low ?? null,
      leakShareHigh: interval?.high ?? null,
      meanPeakedness: list.length === 0 ? null : peaks.reduce((a, b) => a + b, 0) / peaks.length,
      peakAlpha: thresholds.alpha,
      xi: thresholds.xi,
      test,
      verdict,
      alpha: CDD_TEST_ALPHA,
      instanceScores: list,
      cannotTell:
        `${list.length} instance(s) compared` +
        (notCompared > 0
          ? `, ${notCompared} not (no greedy continuation or fewer than two samples: failed or not yet run)`
          : "") +
        ". " +
        (test
          ? `The verdict tests the sample's peakedness against ${test.controlDataset}'s, one-sided at alpha ` +
            `${CDD_TEST_ALPHA}; the authors' rule (leaked when peakedness > ${thresholds.xi}) is shown, not tested. `
          : "No control dataset in the experiment (a dataset marked controlOf this one): the authors' share leaked " +
            "only, no verdict. ") +
        CANNOT_SEE,
    });
  }
  return evidence;
}

function share(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}
