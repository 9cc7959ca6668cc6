// TS-Guessing's evidence (Deng et al., NAACL 2024): how often the model fills in a masked content word of an
// instance exactly, and a test against the dataset's control. Pure.

import { appendTo } from "../../common/collections";
import { wilsonInterval } from "../../statistics/intervals";
import type { GuessingEvidence, GuessingInstanceScore } from "../rows/ts-guessing";
import { againstControl, controlSamplesOf, SAMPLING_TEST_ALPHA, samplingVerdict } from "./against-control";
import { SampleInfo } from "./rows";

/** One answered guess: a GUESSING completion with its stored word and match. */
export interface GuessItem {
  runId: string;
  sampleId: string;
  provider: string;
  model: string;
  /** The sampled instance. */
  item: string;
  guess: string | null;
  matched: boolean;
}

/** A GUESSING run: its sample, model and instances. */
export interface GuessingRunState {
  runId: string;
  sampleId: string;
  provider: string;
  model: string;
  instances: number;
}

const CANNOT_SEE =
  "TS-Guessing reads only whether the model fills in one masked word of each instance exactly: it needs a model " +
  "that follows an instruction (a chat model; a base model continues text and is not asked), and no " +
  "log-probabilities. A word the rest of the text implies is guessed without memory (a name repeated in another " +
  "form, a fixed phrase), and a model that memorized an instance may still answer a synonym; an instance with no " +
  "noun, adjective or verb of three letters or more that the text shows once is not asked. Only the control decides.";

/**
 * Per sample of the experiment with TS-Guessing runs of the examined model: the exact-match rate (with its Wilson
 * interval) and each instance's guess, and with a control dataset in the experiment, the matches against the
 * control's (one-sided Mann-Whitney U on 0/1).
 */
export function guessingEvidence(
  items: readonly GuessItem[],
  examined: { provider: string; model: string },
  runs: readonly GuessingRunState[],
  samples: ReadonlyMap<string, SampleInfo>,
): Map<string, GuessingEvidence> {
  const isExamined = (x: { provider: string; model: string }) =>
    x.provider === examined.provider && x.model === examined.model;
  const scores = new Map<string, GuessingInstanceScore[]>();
  for (const item of items) {
    if (!isExamined(item)) continue;
    appendTo(scores, item.sampleId, {
      sampledInstanceId: item.item,
      guess: item.guess,
      matched: item.matched,
    });
  }
  const runsOf = new Map<string, GuessingRunState[]>();
  for (const run of runs) if (isExamined(run)) appendTo(runsOf, run.sampleId, run);
  const evidence = new Map<string, GuessingEvidence>();
  for (const [sampleId, own] of runsOf) {
    if (!samples.get(sampleId)) continue;
    const list = [...(scores.get(sampleId) ?? [])].sort((a, b) =>
      a.sampledInstanceId.localeCompare(b.sampledInstanceId, undefined, { numeric: true }),
    );
    const controls = controlSamplesOf(sampleId, samples);
    const controlScores = controls.flatMap((id) => scores.get(id) ?? []);
    const compared = againstControl(
      list.map((score) => (score.matched ? 1 : 0)),
      controlScores.map((score) => (score.matched ? 1 : 0)),
      controls,
      samples,
    );
    const test = compared && { ...compared, controlMatchRate: matchRateOf(controlScores) };
    const matched = list.filter((score) => score.matched).length;
    const interval = wilsonInterval(matched, list.length);
    const notCompared = Math.max(0, Math.max(...own.map((run) => run.instances)) - list.length);
    evidence.set(sampleId, {
      runIds: own.map((run) => run.runId).sort(),
      instances: list.length,
      notCompared,
      matched,
      matchRate: matchRateOf(list),
      matchRateLow: interval?.low ?? null,
      matchRateHigh: interval?.high ?? null,
      test,
      verdict: samplingVerdict(compared),
      alpha: SAMPLING_TEST_ALPHA,
      instanceScores: list,
      cannotTell:
        `${list.length} instance(s) answered` +
        (notCompared > 0 ? `, ${notCompared} not (no word to mask, or the call failed or has not run)` : "") +
        ". " +
        (test
          ? `The verdict tests the sample's exact matches against ${test.controlDataset}'s, one-sided at alpha ` +
            `${SAMPLING_TEST_ALPHA}. `
          : "No control dataset in the experiment (a dataset marked controlOf this one): the rate only, no verdict. ") +
        CANNOT_SEE,
    });
  }
  return evidence;
}

function matchRateOf(scores: readonly { matched: boolean }[]): number | null {
  return scores.length === 0 ? null : scores.filter((score) => score.matched).length / scores.length;
}
