// CoDeC's evidence (Zawalski et al., ICLR 2026): how each instance's confidence moves when another instance of its
// sample stands before it, the share whose confidence drops, and a test against the dataset's control. Pure.

import { appendTo } from "../../common/collections";
import { codecScore } from "../../logprob/codec";
import { readTokenLogprobs } from "../../logprob/scores";
import { wilsonInterval } from "../../statistics/intervals";
import type { CodecEvidence, CodecInstanceScore } from "../rows/codec";
import { againstControl, controlSamplesOf, SAMPLING_TEST_ALPHA, samplingVerdict } from "./against-control";
import { SampleInfo } from "./rows";

/** One scoring pass of one instance: a CoDeC LOGPROB completion. */
export interface CodecItem {
  runId: string;
  sampleId: string;
  provider: string;
  model: string;
  /** The sampled instance. */
  item: string;
  /** The in-context pass (else the instance alone). */
  inContext: boolean;
  /** The completion's stored payload. */
  output: string | null;
}

/** A CoDeC scoring run: its sample, model and instances. */
export interface CodecRunState {
  runId: string;
  sampleId: string;
  provider: string;
  model: string;
  instances: number;
}

const CANNOT_SEE =
  "CoDeC reads only how the model's confidence in an instance moves when another instance of the same dataset " +
  "stands before it: it needs prompt log-probabilities (two scoring passes per instance) and no sampling. Its " +
  "premise is that a memorized instance gains less from the context (or loses) than an unseen one; a model whose " +
  "memory does not change how it reads context, or an instance too short to score, shows nothing, and a dataset " +
  "whose instances help each other more than the control's moves the score without memory, which is why only the " +
  "control decides.";

/**
 * Per sample of the experiment with CoDeC runs of the examined model: each instance's change of confidence with a
 * context, the share that drop (the authors' score, with its Wilson interval), and with a control dataset in the
 * experiment, the drops against the control's (one-sided Mann-Whitney U on -delta).
 */
export function codecEvidence(
  items: readonly CodecItem[],
  examined: { provider: string; model: string },
  runs: readonly CodecRunState[],
  samples: ReadonlyMap<string, SampleInfo>,
): Map<string, CodecEvidence> {
  const isExamined = (x: { provider: string; model: string }) =>
    x.provider === examined.provider && x.model === examined.model;
  const passes = new Map<string, { sampleId: string; alone?: string | null; inContext?: string | null }>();
  for (const item of items) {
    if (!isExamined(item)) continue;
    const entry = passes.get(item.item) ?? { sampleId: item.sampleId };
    if (item.inContext) entry.inContext = item.output;
    else entry.alone = item.output;
    passes.set(item.item, entry);
  }
  const scores = new Map<string, CodecInstanceScore[]>();
  for (const [item, entry] of passes) {
    const alone = readTokenLogprobs(entry.alone ?? null);
    const inContext = readTokenLogprobs(entry.inContext ?? null);
    const score = alone && inContext ? codecScore(alone, inContext) : null;
    if (!score) continue;
    appendTo(scores, entry.sampleId, { sampledInstanceId: item, ...score });
  }
  const runsOf = new Map<string, CodecRunState[]>();
  for (const run of runs) if (isExamined(run)) appendTo(runsOf, run.sampleId, run);
  const evidence = new Map<string, CodecEvidence>();
  for (const [sampleId, own] of runsOf) {
    if (!samples.get(sampleId)) continue;
    const list = [...(scores.get(sampleId) ?? [])].sort((a, b) =>
      a.sampledInstanceId.localeCompare(b.sampledInstanceId, undefined, { numeric: true }),
    );
    const drops = list.map((score) => -score.delta);
    const controls = controlSamplesOf(sampleId, samples);
    const controlScores = controls.flatMap((id) => scores.get(id) ?? []);
    const compared = againstControl(
      drops,
      controlScores.map((score) => -score.delta),
      controls,
      samples,
    );
    const test = compared && { ...compared, controlDropShare: dropShareOf(controlScores) };
    const dropped = list.filter((score) => score.delta < 0).length;
    const interval = wilsonInterval(dropped, list.length);
    const notCompared = Math.max(0, Math.max(...own.map((run) => run.instances)) - list.length);
    evidence.set(sampleId, {
      runIds: own.map((run) => run.runId).sort(),
      instances: list.length,
      notCompared,
      dropped,
      dropShare: dropShareOf(list),
      dropShareLow: interval?.low ?? null,
      dropShareHigh: interval?.high ?? null,
      meanDelta: list.length === 0 ? null : list.reduce((sum, score) => sum + score.delta, 0) / list.length,
      test,
      verdict: samplingVerdict(compared),
      alpha: SAMPLING_TEST_ALPHA,
      instanceScores: list,
      cannotTell:
        `${list.length} instance(s) compared` +
        (notCompared > 0 ? `, ${notCompared} not (a pass failed or has not run)` : "") +
        ". " +
        (test
          ? `The verdict tests the sample's drops of confidence against ${test.controlDataset}'s, one-sided at ` +
            `alpha ${SAMPLING_TEST_ALPHA}. `
          : "No control dataset in the experiment (a dataset marked controlOf this one): the share only, no verdict. ") +
        CANNOT_SEE,
    });
  }
  return evidence;
}

function dropShareOf(scores: readonly { delta: number }[]): number | null {
  return scores.length === 0 ? null : scores.filter((score) => score.delta < 0).length / scores.length;
}
