// Time Travel's Algorithm 1: the guided instruction against the general one, by ROUGE-L, bootstrapped. Pure.

import {
  BOOTSTRAP_SEED,
  GUIDED_GENERAL_RESAMPLES,
  pairedBootstrapP,
  unpairedBootstrapP,
} from "../../statistics/bootstrap";
import { MemorizationSetting } from "../../study/settings";
import type { GuidedGeneralRow } from "../rows/guided-general";
import { bySample, groupItems, SampleInfo, sampleFields } from "./rows";

/** One completion's ROUGE-L F against its reference (rouge_score's, rounded to two decimals). */
export interface InstanceScore {
  sampleId: string;
  setting: MemorizationSetting;
  shots: number;
  sampledInstanceId: string;
  score: number;
}

/** Significant at this one-sided p, as Time Travel decides. */
export const GUIDED_GENERAL_ALPHA = 0.05;

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Per sample and k: each instance's score under the guided instruction (full information) and under the general
 * one (the mean of its completions in each), the means, and two one-sided bootstrap p-values that the guided mean
 * is higher: paired (the per-instance differences resampled; the default, which matches the published p-values)
 * and unpaired (each list resampled on its own, as the authors' helper does). Seeded; 10,000 resamples.
 */
export function guidedVsGeneral(
  scores: readonly InstanceScore[],
  samples: ReadonlyMap<string, SampleInfo & { split?: string }>,
  options: { resamples?: number; seed?: number } = {},
): GuidedGeneralRow[] {
  const resamples = options.resamples ?? GUIDED_GENERAL_RESAMPLES;
  const seed = options.seed ?? BOOTSTRAP_SEED;
  const rows: GuidedGeneralRow[] = [];
  for (const cell of guidedGeneralCells(scores)) {
    const perInstance = (setting: MemorizationSetting) => {
      const byInstance = groupItems(
        cell.filter((row) => row.setting === setting),
        (row) => row.sampledInstanceId,
      );
      return new Map([...byInstance].map(([id, rows]) => [id, mean(rows.map((row) => row.score))]));
    };
    const guided = perInstance(MemorizationSetting.FULL_INFORMATION);
    const general = perInstance(MemorizationSetting.GENERAL_INSTRUCTION);
    if (guided.size === 0 || general.size === 0) continue;
    const differences = [...guided]
      .filter(([id]) => general.has(id))
      .map(([id, score]) => score - general.get(id)!);
    const info = samples.get(cell[0].sampleId);
    const paired = pairedBootstrapP(differences, { resamples, seed });
    rows.push({
      dataset: info?.dataset ?? "?",
      ...sampleFields(info),
      split: info?.split ?? null,
      shots: cell[0].shots,
      instances: differences.length,
      guidedMean: mean([...guided.values()]),
      generalMean: mean([...general.values()]),
      difference: differences.length ? mean(differences) : null,
      pValuePaired: paired,
      pValueUnpaired: unpairedBootstrapP([...guided.values()], [...general.values()], { resamples, seed }),
      significant: paired !== null && paired <= GUIDED_GENERAL_ALPHA,
      resamples,
      seed,
    });
  }
  return orderGuidedGeneralRows(rows);
}

/**
 * The scores a cell (sample and k) at a time: `guidedVsGeneral` of each, put in order by
 * `orderGuidedGeneralRows`, gives the rows of all of them (a server lets other work in between cells: 10,000
 * resamples of every cell at once held its event loop for 0.4-0.7 s).
 */
export function guidedGeneralCells(scores: readonly InstanceScore[]): InstanceScore[][] {
  return [...groupItems(scores, (row) => `${row.sampleId}/${row.shots}`).values()];
}

/** Rows in the order `guidedVsGeneral` gives them: by sample, then k. */
export function orderGuidedGeneralRows(rows: GuidedGeneralRow[]): GuidedGeneralRow[] {
  return rows.sort((a, b) => bySample(a, b) || a.shots - b.shots);
}
