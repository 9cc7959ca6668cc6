// N-gram coverage's evidence (Hallinan et al., CoLM 2025): how much of each instance's true continuation its sampled
// continuations reproduce in runs of n words, and a test against the dataset's control. Pure.

import { appendTo } from "../../common/collections";
import { NGRAM_DEFAULTS, ngramInstance } from "../../sampling/ngram";
import type { NgramEvidence, NgramInstanceScore } from "../rows/ngram";
import { againstControl, controlSamplesOf, SAMPLING_TEST_ALPHA, samplingVerdict } from "./against-control";
import type { ContinuationItem, ContinuationRunState } from "./cdd";
import { SampleInfo } from "./rows";

/** A sampled continuation with the instance's true continuation beside it. */
export interface CoverageItem extends ContinuationItem {
  reference: string;
}

const CANNOT_SEE =
  "N-gram coverage reads only what the samples reproduce of the true continuation, word for word in runs of n: it " +
  "needs sampling and no log-probabilities; it cannot see a model that memorized an instance but samples other " +
  "words (a paraphrase, another order), and a continuation the task makes predictable (a fixed phrase, a label) is " +
  "covered without memory, which is why only the control decides.";

/**
 * Per sample of the experiment with n-gram coverage runs of the examined model: each instance's coverage (the
 * largest share of its true continuation one sample reproduces in runs of n words, and the mean), and with a
 * control dataset in the experiment, the sample's coverage against the control's (one-sided Mann-Whitney U).
 */
export function ngramEvidence(
  items: readonly CoverageItem[],
  examined: { provider: string; model: string },
  runs: readonly ContinuationRunState[],
  samples: ReadonlyMap<string, SampleInfo>,
  n: number = NGRAM_DEFAULTS.n,
): Map<string, NgramEvidence> {
  const isExamined = (x: { provider: string; model: string }) =>
    x.provider === examined.provider && x.model === examined.model;
  const drawn = new Map<string, { sampleId: string; reference: string; texts: string[] }>();
  for (const item of items) {
    if (!isExamined(item)) continue;
    const entry = drawn.get(item.item) ?? { sampleId: item.sampleId, reference: item.reference, texts: [] };
    entry.texts.push(item.text);
    drawn.set(item.item, entry);
  }
  const scores = new Map<string, NgramInstanceScore[]>();
  for (const [item, entry] of drawn) {
    const instance = ngramInstance(entry.reference, entry.texts, n);
    if (!instance) continue;
    appendTo(scores, entry.sampleId, {
      sampledInstanceId: item,
      maxCoverage: instance.maxCoverage,
      meanCoverage: instance.meanCoverage,
      samples: instance.samples,
    });
  }
  const runsOf = new Map<string, ContinuationRunState[]>();
  for (const run of runs) if (isExamined(run)) appendTo(runsOf, run.sampleId, run);
  const evidence = new Map<string, NgramEvidence>();
  for (const [sampleId, own] of runsOf) {
    if (!samples.get(sampleId)) continue;
    const list = [...(scores.get(sampleId) ?? [])].sort((a, b) =>
      a.sampledInstanceId.localeCompare(b.sampledInstanceId, undefined, { numeric: true }),
    );
    const coverage = list.map((score) => score.maxCoverage);
    const controls = controlSamplesOf(sampleId, samples);
    const controlCoverage = controls.flatMap((id) =>
      (scores.get(id) ?? []).map((score) => score.maxCoverage),
    );
    const compared = againstControl(coverage, controlCoverage, controls, samples);
    const test = compared && { ...compared, controlMeanCoverage: mean(controlCoverage) };
    const notCompared = Math.max(0, Math.max(...own.map((run) => run.instances)) - list.length);
    evidence.set(sampleId, {
      runIds: own.map((run) => run.runId).sort(),
      prompt: own[0].prompt,
      n,
      instances: list.length,
      notCompared,
      samplesPerInstance:
        list.length === 0 ? null : list.reduce((sum, s) => sum + s.samples, 0) / list.length,
      meanCoverage: mean(coverage),
      test,
      verdict: samplingVerdict(compared),
      alpha: SAMPLING_TEST_ALPHA,
      instanceScores: list,
      cannotTell:
        `${list.length} instance(s) compared` +
        (notCompared > 0 ? `, ${notCompared} not (no sample: failed or not yet run)` : "") +
        ". " +
        (test
          ? `The verdict tests the sample's coverage (the best sample's, n = ${n}) against ${test.controlDataset}'s, ` +
            `one-sided at alpha ${SAMPLING_TEST_ALPHA}. `
          : "No control dataset in the experiment (a dataset marked controlOf this one): coverage only, no verdict. ") +
        CANNOT_SEE,
    });
  }
  return evidence;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}
