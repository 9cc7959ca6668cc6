// A sampling method's decision on one sample: its per-instance scores against those of its dataset's control (a
// dataset marked controlOf it, which the model cannot have seen), one-sided Mann-Whitney U at a stated level. Pure.

import { mannWhitneyGreater, rocAuc } from "../../statistics/membership";
import { ContaminationVerdict } from "../../study/contamination-verdict";
import { SampleInfo } from "./rows";

/** The level of the sampling methods' tests. */
export const SAMPLING_TEST_ALPHA = 0.05;
/** Fewer compared instances on either side than this and the test cannot tell. */
export const SAMPLING_MIN_INSTANCES = 10;

export interface ControlComparison {
  controlDataset: string;
  instances: number;
  controlInstances: number;
  /** P(an instance's score is above a control instance's), ties counting half. */
  auc: number | null;
  /** One-sided: the sample's scores sit above the control's. */
  pValue: number | null;
}

/** The samples of the experiment whose dataset is the control of this sample's dataset. */
export function controlSamplesOf(sampleId: string, samples: ReadonlyMap<string, SampleInfo>): string[] {
  const dataset = samples.get(sampleId)?.dataset;
  return [...samples.values()]
    .filter((info) => info.controlOf === dataset && info.sampleId !== sampleId)
    .map((info) => info.sampleId);
}

/** The sample's scores against its control's; null without a control in the experiment. */
export function againstControl(
  own: readonly number[],
  control: readonly number[],
  controls: readonly string[],
  samples: ReadonlyMap<string, SampleInfo>,
): ControlComparison | null {
  if (controls.length === 0) return null;
  return {
    controlDataset: samples.get(controls[0])?.dataset ?? "?",
    instances: own.length,
    controlInstances: control.length,
    auc: rocAuc(own, control),
    pValue: mannWhitneyGreater(own, control)?.pValue ?? null,
  };
}

/** CONTAMINATED under alpha, CANNOT_TELL with too few instances a side, NO_EVIDENCE otherwise; null untested. */
export function samplingVerdict(test: ControlComparison | null): ContaminationVerdict | null {
  if (!test) return null;
  if (test.instances < SAMPLING_MIN_INSTANCES || test.controlInstances < SAMPLING_MIN_INSTANCES)
    return ContaminationVerdict.CANNOT_TELL;
  return test.pValue !== null && test.pValue < SAMPLING_TEST_ALPHA
    ? ContaminationVerdict.CONTAMINATED
    : ContaminationVerdict.NO_EVIDENCE;
}
