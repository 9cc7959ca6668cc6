// One contamination summary per sample (dataset and split): each method's evidence side by side, with its counts,
// its runs and what it cannot tell. It reports evidence, not a score of its own. Pure.

import type { InstanceFloor } from "../../judge/no-memory";
import { MemorizationSetting, RunKind } from "../../study/settings";
import type { CddEvidence } from "../rows/cdd";
import type { CodecEvidence } from "../rows/codec";
import type { ContaminationRow } from "../rows/contamination";
import type { ContaminationSummaryRow } from "../rows/contamination-summary";
import type { GuidedGeneralRow } from "../rows/guided-general";
import type { LogprobEvidence } from "../rows/logprob";
import type { NgramEvidence } from "../rows/ngram";
import type { NoMemoryFloorRow } from "../rows/no-memory-floor";
import type { QuizRangeRow } from "../rows/quiz";
import type { GuessingEvidence } from "../rows/ts-guessing";
import { CONTAMINATION_SUBSET_SIZE } from "./contamination";
import { bySample, SampleInfo, sampleFields } from "./rows";
import { ReplicationVerdict, timeTravelFalsePositiveRate } from "./verdict";

/** What each method cannot tell, shown with its evidence. */
export const METHOD_LIMITS = {
  timeTravel:
    "Time Travel's rule looks at 10 non-trivial instances under the guided instruction: one exact or two " +
    "near-exact replications flag the partition. It is not a test: falsePositiveRate is how often a model with " +
    "no memory meets it on this sample, and the replication verdict is the decision.",
  replication:
    "The verdict tests replication above the no-memory floor (copies of the input, constants, the shown " +
    "demonstrations' continuations) on non-trivial targets against a no-memory allowance and the control dataset " +
    "where there is one. It cannot tell training-set memorization from the text's presence elsewhere on the web; " +
    "a model that memorized but does not recite on request is missed (it bounds contamination from below), and " +
    "so is one whose memorized instances are all trivial or within the floor.",
  guidedGeneral:
    "Algorithm 1 compares the guided instruction with the general one by ROUGE-L (BLEURT-20, its second score, " +
    "needs a TensorFlow checkpoint that cannot be installed here); a significant difference shows that naming " +
    "the dataset helps, not how much of it was seen.",
  quiz:
    "The quiz's range is the authors' [lower, upper]: upper is the best letter's hit share, lower the larger of " +
    "kappa (the best letter's hits corrected for the model's positional bias) and the second letter's hit " +
    "share; only kappa is bias-corrected. It has no error rate of its own, depends on the generated options (a " +
    "perturbation too close to or too far from the original moves it) and cannot be compared across option sets.",
} as const;

/** The experiment's runs of one cell (sample, kind, setting, k), as the summary links them. */
export interface SummaryRuns {
  sampleId: string;
  kind: RunKind;
  setting: MemorizationSetting | null;
  shots: number;
  ids: string[];
}

/**
 * Per sample: Time Travel's rule (guided instruction at the smallest k, on the seeded 10-instance subset),
 * replication above its no-memory floor at the same cell beside the general-instruction control, Algorithm 1's
 * p-values at that k, and the quiz's range; a method without runs in the experiment is null.
 */
export function contaminationSummary(
  input: {
    contamination: readonly ContaminationRow[];
    floors: readonly NoMemoryFloorRow[];
    guidedGeneral: readonly GuidedGeneralRow[];
    quiz: readonly QuizRangeRow[];
    runs: readonly SummaryRuns[];
    /** The replication verdict of each sample (analyses/verdict.ts). */
    verdicts?: ReadonlyMap<string, ReplicationVerdict>;
    /** Each instance's no-memory floor, and each sample's non-trivial instances (the rule's pool). */
    instanceFloors?: ReadonlyMap<string, InstanceFloor>;
    pools?: ReadonlyMap<string, readonly string[]>;
    /** The LOGPROB method's evidence per sample (analyses/logprob.ts). */
    logprob?: ReadonlyMap<string, LogprobEvidence>;
    /** The CDD method's evidence per sample (analyses/cdd.ts). */
    cdd?: ReadonlyMap<string, CddEvidence>;
    /** N-gram coverage's evidence per sample (analyses/ngram.ts). */
    ngramCoverage?: ReadonlyMap<string, NgramEvidence>;
    /** CoDeC's evidence per sample (analyses/codec.ts). */
    codec?: ReadonlyMap<string, CodecEvidence>;
    /** TS-Guessing's evidence per sample (analyses/ts-guessing.ts). */
    tsGuessing?: ReadonlyMap<string, GuessingEvidence>;
  },
  samples: ReadonlyMap<string, SampleInfo & { split?: string }>,
): ContaminationSummaryRow[] {
  const rows: ContaminationSummaryRow[] = [];
  for (const [sampleId, info] of samples) {
    const runsOf = (pick: (runs: SummaryRuns) => boolean) =>
      input.runs.filter((runs) => runs.sampleId === sampleId && pick(runs)).flatMap((runs) => runs.ids);
    const guided = input.contamination
      .filter((row) => row.sampleId === sampleId && row.setting === MemorizationSetting.FULL_INFORMATION)
      .sort((a, b) => a.shots - b.shots)[0];
    const floor = guided
      ? input.floors.find(
          (row) =>
            row.sampleId === sampleId &&
            row.setting === MemorizationSetting.FULL_INFORMATION &&
            row.shots === guided.shots,
        )
      : undefined;
    const general = guided
      ? input.floors.find(
          (row) =>
            row.sampleId === sampleId &&
            row.setting === MemorizationSetting.GENERAL_INSTRUCTION &&
            row.shots === guided.shots,
        )
      : undefined;
    const algorithm1 = input.guidedGeneral
      .filter((row) => row.sampleId === sampleId)
      .sort((a, b) => a.shots - b.shots)[0];
    const quiz = input.quiz.find((row) => row.sampleId === sampleId) ?? null;
    const memorizationRuns = (setting: MemorizationSetting, shots: number) =>
      runsOf((run) => run.kind === RunKind.MEMORIZATION && run.setting === setting && run.shots === shots);
    const logprob = input.logprob?.get(sampleId) ?? null;
    const cdd = input.cdd?.get(sampleId) ?? null;
    const ngramCoverage = input.ngramCoverage?.get(sampleId) ?? null;
    const codec = input.codec?.get(sampleId) ?? null;
    const tsGuessing = input.tsGuessing?.get(sampleId) ?? null;
    if (!guided && !algorithm1 && !quiz && !logprob && !cdd && !ngramCoverage && !codec && !tsGuessing)
      continue;
    const verdict = input.verdicts?.get(sampleId);
    const pool = input.pools?.get(sampleId) ?? [];
    rows.push({
      dataset: info.dataset,
      split: info.split ?? null,
      ...sampleFields(info),
      timeTravel: guided
        ? {
            shots: guided.shots,
            subsetJudged: guided.subsetJudged,
            exact: guided.exact,
            nearExact: guided.nearExact,
            contaminated: guided.contaminated,
            pool: pool.length,
            falsePositiveRate: timeTravelFalsePositiveRate(
              pool,
              input.instanceFloors ?? new Map(),
              guided.shots,
              CONTAMINATION_SUBSET_SIZE,
            ),
            runIds: memorizationRuns(MemorizationSetting.FULL_INFORMATION, guided.shots),
            cannotTell: METHOD_LIMITS.timeTravel,
          }
        : null,
      replication:
        floor && verdict
          ? {
              shots: floor.shots,
              instances: floor.instances,
              memorized: floor.memorized,
              rate: floor.rate,
              floorInstances: floor.floorInstances,
              floorRate: floor.floorRate,
              aboveFloor: floor.aboveFloor,
              aboveFloorRate: floor.aboveFloorRate,
              aboveFloorCiLow: floor.aboveFloorCiLow,
              aboveFloorCiHigh: floor.aboveFloorCiHigh,
              signal: (floor.aboveFloorCiLow ?? 0) > 0,
              verdict: verdict.verdict,
              alpha: verdict.alpha,
              allowance: verdict.allowance,
              family: verdict.family,
              pValue: verdict.pValue,
              verdictShots: verdict.shots,
              minimumDetectableRate: verdict.minimumDetectableRate,
              tests: verdict.cells,
              reason: verdict.reason,
              generalInstructionRate: general?.rate ?? null,
              generalInstructionInstances: general?.instances ?? null,
              runIds: [
                ...memorizationRuns(MemorizationSetting.FULL_INFORMATION, floor.shots),
                ...memorizationRuns(MemorizationSetting.GENERAL_INSTRUCTION, floor.shots),
              ],
              cannotTell: METHOD_LIMITS.replication,
            }
          : null,
      guidedGeneral: algorithm1
        ? {
            shots: algorithm1.shots,
            instances: algorithm1.instances,
            guidedMean: algorithm1.guidedMean,
            generalMean: algorithm1.generalMean,
            pValuePaired: algorithm1.pValuePaired,
            pValueUnpaired: algorithm1.pValueUnpaired,
            significant: algorithm1.significant,
            resamples: algorithm1.resamples,
            runIds: [
              ...memorizationRuns(MemorizationSetting.FULL_INFORMATION, algorithm1.shots),
              ...memorizationRuns(MemorizationSetting.GENERAL_INSTRUCTION, algorithm1.shots),
            ],
            cannotTell: METHOD_LIMITS.guidedGeneral,
          }
        : null,
      quiz: quiz
        ? {
            range: quiz,
            runIds: runsOf((run) => run.kind === RunKind.QUIZ || run.kind === RunKind.QUIZ_OPTIONS),
            cannotTell: METHOD_LIMITS.quiz,
          }
        : null,
      logprob,
      cdd,
      ngramCoverage,
      codec,
      tsGuessing,
    });
  }
  return rows.sort(bySample);
}
