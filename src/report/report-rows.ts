import { MemorizationMeasure } from "../study/measures";
import { Regime } from "../study/regime";
import { MemorizationSetting } from "../study/settings";
import type { StudyReport } from "./report.types";

/**
 * The study report as flat rows: one number per row with its counts, interval and scope. Pure: the report's own
 * numbers, renamed and reshaped, so that a dashboard can plot any of them without knowing the report's nesting.
 * docs/METRICS.md lists every name.
 */
export interface MetricScope {
  experimentId: string;
  /** The experiment's provider and requested model: rows of several experiments stay apart. */
  provider: string | null;
  model: string | null;
  /** Null on a row pooled over the samples of a dataset. */
  sampleId: string | null;
  sampleName: string | null;
  sampleSeed: string | null;
  dataset: string | null;
  setting: MemorizationSetting | null;
  shots: number | null;
  regime: Regime | null;
  measure: MemorizationMeasure | null;
  /** Whose verdicts a memorization figure counts: "effective" (the latest human review, else the judge). */
  judge: string | null;
  /** The second cell of a paired comparison, or the larger k of a transition. */
  otherSetting: MemorizationSetting | null;
  otherShots: number | null;
  /** The control dataset of a control comparison. */
  otherDataset: string | null;
  /** A group of instances within the cell: `label=<label>` or `length=<bucket>`. */
  group: string | null;
}

export interface MetricRow {
  name: string;
  value: number | null;
  numerator: number | null;
  denominator: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  scope: MetricScope;
}

/** The verdicts the report counts: human reviews first, then the automatic judge. */
export const EFFECTIVE_JUDGE = "effective";

type ScopeParts = Partial<MetricScope> & {
  sampleId: string | null;
  sampleName: string | null;
  sampleSeed: string | null;
};

export function metricRowsOf(report: StudyReport): MetricRow[] {
  const rows: MetricRow[] = [];
  const scopeOf = (parts: ScopeParts): MetricScope => ({
    experimentId: report.experimentId,
    provider: report.subject?.provider ?? null,
    model: report.subject?.requestedModel ?? null,
    sampleId: parts.sampleId,
    sampleName: parts.sampleName,
    sampleSeed: parts.sampleSeed,
    dataset: parts.dataset ?? null,
    setting: parts.setting ?? null,
    shots: parts.shots ?? null,
    regime: parts.regime ?? null,
    measure: parts.measure ?? null,
    judge: parts.judge ?? null,
    otherSetting: parts.otherSetting ?? null,
    otherShots: parts.otherShots ?? null,
    otherDataset: parts.otherDataset ?? null,
    group: parts.group ?? null,
  });
  const push = (
    name: string,
    scope: MetricScope,
    value: number | null,
    extra: Partial<Omit<MetricRow, "name" | "scope" | "value">> = {},
  ) => {
    rows.push({
      name,
      value,
      numerator: extra.numerator ?? null,
      denominator: extra.denominator ?? null,
      ciLow: extra.ciLow ?? null,
      ciHigh: extra.ciHigh ?? null,
      scope,
    });
  };
  const share = (count: number, n: number) => ({
    value: n > 0 ? count / n : null,
    counts: { numerator: count, denominator: n },
  });

  const memorizationTables = [
    {
      name: "memorization.rate",
      rows: report.memorization,
      measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
    },
    {
      name: "memorization.rate",
      rows: report.memorizationExactOnly,
      measure: MemorizationMeasure.EXACT_ONLY,
    },
    {
      name: "memorization.rate_by_regime",
      rows: report.memorizationByRegime,
      measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
    },
  ];
  for (const table of memorizationTables) {
    for (const row of table.rows) {
      const scope = scopeOf({ ...row, measure: table.measure, judge: EFFECTIVE_JUDGE });
      push(table.name, scope, row.rate, {
        numerator: row.memorized,
        denominator: row.n,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
      });
      if (row.betweenSampleStandardDeviation !== null) {
        push(`${table.name}.between_sample_sd`, scope, row.betweenSampleStandardDeviation, {
          denominator: row.samples,
        });
      }
      // The verdict counts do not depend on the measure: written once, with the main measure's rows.
      if (table.measure !== MemorizationMeasure.EXACT_OR_NEAR_EXACT) continue;
      const counts = scopeOf({ ...row, judge: EFFECTIVE_JUDGE });
      const prefix = table.name === "memorization.rate" ? "memorization" : "memorization.by_regime";
      for (const [verdict, count] of [
        ["exact", row.exact],
        ["near_exact", row.nearExact],
        ["inexact", row.inexact],
      ] as const) {
        const { value, counts: c } = share(count, row.n);
        push(`${prefix}.${verdict}_share`, counts, value, c);
      }
      push(`${prefix}.unjudged`, counts, row.unjudged);
    }
  }

  for (const row of report.performance) {
    const scope = scopeOf(row);
    push("performance.accuracy", scope, row.accuracy, {
      numerator: row.correct,
      denominator: row.n,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
    push("performance.mean_accuracy", scope, row.meanAccuracy, { denominator: row.repeats });
    push("performance.accuracy_sd", scope, row.accuracyStandardDeviation, { denominator: row.repeats });
    if (row.betweenSampleStandardDeviation !== null) {
      push("performance.accuracy.between_sample_sd", scope, row.betweenSampleStandardDeviation, {
        denominator: row.samples,
      });
    }
    const unparseable = share(row.unparseable, row.n);
    push("performance.unparseable_share", scope, unparseable.value, unparseable.counts);
    push("performance.failed", scope, row.failed);
  }

  for (const row of report.memorizedVsNotMemorized) {
    const scope = scopeOf({ ...row, judge: EFFECTIVE_JUDGE });
    for (const [name, group] of [
      ["memorized_vs_not.accuracy_memorized", row.memorized],
      ["memorized_vs_not.accuracy_not_memorized", row.notMemorized],
    ] as const) {
      push(name, scope, group.accuracy, { numerator: group.correct, denominator: group.n });
    }
    push("memorized_vs_not.memorized_instances", scope, row.memorized.instances, {
      numerator: row.memorized.instances,
      denominator: row.memorized.instances + row.notMemorized.instances,
    });
    push("memorized_vs_not.difference", scope, row.difference, {
      ciLow: row.differenceCiLow,
      ciHigh: row.differenceCiHigh,
    });
    for (const [name, group] of [
      ["memorized_vs_not.instance_accuracy_memorized", row.memorized],
      ["memorized_vs_not.instance_accuracy_not_memorized", row.notMemorized],
    ] as const)
      push(name, scope, group.instances ? group.correctInstances / group.instances : null, {
        numerator: group.correctInstances,
        denominator: group.instances,
      });
    push("memorized_vs_not.fisher_p", scope, row.pValue);
    push("memorized_vs_not.fisher_p_holm", scope, row.pValueHolm);
  }

  for (const row of report.correlations) {
    const scope = scopeOf({ ...row, judge: EFFECTIVE_JUDGE });
    const n = { denominator: row.n };
    push("correlation.pearson", scope, row.pearson, {
      ...n,
      ciLow: row.pearsonCiLow,
      ciHigh: row.pearsonCiHigh,
    });
    push("correlation.pearson_p", scope, row.pearsonPValue, n);
    push("correlation.pearson_p_holm", scope, row.pearsonPValueHolm, n);
    push("correlation.pearson_permutation_p", scope, row.pearsonPermutationPValue, n);
    push("correlation.spearman", scope, row.spearman, n);
    push("correlation.spearman_p", scope, row.spearmanPValue, n);
    push("correlation.spearman_p_holm", scope, row.spearmanPValueHolm, n);
  }

  for (const [prefix, table] of [
    ["setting_comparison", report.settingComparisons],
    ["zero_vs_few_shot", report.zeroVsK],
  ] as const) {
    for (const row of table) {
      const scope = scopeOf({
        ...row,
        setting: row.settingA,
        shots: row.shotsA,
        otherSetting: row.settingB,
        otherShots: row.shotsB,
        measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
        judge: EFFECTIVE_JUDGE,
      });
      const discordant = { numerator: row.onlyA, denominator: row.onlyA + row.onlyB };
      push(`${prefix}.mcnemar_p`, scope, row.pValue, discordant);
      push(`${prefix}.mcnemar_p_holm`, scope, row.pValueHolm, discordant);
      push(`${prefix}.pairs`, scope, row.pairs);
      push(`${prefix}.difference`, scope, row.difference ?? null, { denominator: row.pairs });
    }
  }

  for (const row of report.memorizationNonTrivial ?? []) {
    const scope = scopeOf({
      ...row,
      measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
      judge: EFFECTIVE_JUDGE,
    });
    push("memorization_non_trivial.rate", scope, row.rate, {
      numerator: row.memorized,
      denominator: row.instances,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
    push("memorization_non_trivial.trivial_left_out", scope, row.trivialInstances);
  }

  for (const row of report.noMemoryFloor ?? []) {
    const scope = scopeOf({
      ...row,
      measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
      judge: EFFECTIVE_JUDGE,
    });
    push("control.no_memory_floor", scope, row.floorRate, {
      numerator: row.floorInstances,
      denominator: row.instances,
      ciLow: row.floorCiLow,
      ciHigh: row.floorCiHigh,
    });
    push("control.memorized_above_floor", scope, row.aboveFloorRate, {
      numerator: row.aboveFloor,
      denominator: row.instances,
      ciLow: row.aboveFloorCiLow,
      ciHigh: row.aboveFloorCiHigh,
    });
    push("control.eligible_rate", scope, row.eligibleRate, {
      numerator: row.eligibleMemorized,
      denominator: row.eligibleInstances,
    });
  }

  for (const row of report.contaminationSummary ?? []) {
    const replication = row.replication;
    if (replication) {
      const scope = scopeOf({
        ...row,
        setting: MemorizationSetting.FULL_INFORMATION,
        shots: replication.verdictShots,
        judge: EFFECTIVE_JUDGE,
      });
      push("replication_verdict.contaminated", scope, replication.verdict === "CONTAMINATED" ? 1 : 0);
      push("replication_verdict.cannot_tell", scope, replication.verdict === "CANNOT_TELL" ? 1 : 0);
      push("replication_verdict.p_value", scope, replication.pValue, { denominator: replication.family });
      push("replication_verdict.minimum_detectable_rate", scope, replication.minimumDetectableRate);
    }
    if (row.timeTravel)
      push(
        "contamination.rule_false_positive_rate",
        scopeOf({
          ...row,
          setting: MemorizationSetting.FULL_INFORMATION,
          shots: row.timeTravel.shots,
          judge: EFFECTIVE_JUDGE,
        }),
        row.timeTravel.falsePositiveRate,
        { denominator: row.timeTravel.pool },
      );
  }

  for (const row of report.versusControl ?? []) {
    const scope = scopeOf({
      sampleId: null,
      sampleName: null,
      sampleSeed: null,
      dataset: row.dataset,
      setting: row.setting,
      shots: row.shots,
      measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
      judge: EFFECTIVE_JUDGE,
      otherDataset: row.controlDataset,
    });
    push("control.dataset_rate", scope, row.rate, {
      numerator: row.memorized,
      denominator: row.instances,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
    push("control.control_rate", scope, row.controlRate, {
      numerator: row.controlMemorized,
      denominator: row.controlInstances,
      ciLow: row.controlCiLow,
      ciHigh: row.controlCiHigh,
    });
    push("control.difference", scope, row.difference, {
      ciLow: row.differenceCiLow,
      ciHigh: row.differenceCiHigh,
    });
    push("control.fisher_p", scope, row.pValue);
    push("control.fisher_p_holm", scope, row.pValueHolm ?? null);
  }

  for (const row of report.guidedVsGeneral ?? []) {
    const scope = scopeOf({
      ...row,
      setting: MemorizationSetting.FULL_INFORMATION,
      otherSetting: MemorizationSetting.GENERAL_INSTRUCTION,
    });
    const n = { denominator: row.instances };
    push("guided_vs_general.guided_rouge_l", scope, row.guidedMean, n);
    push("guided_vs_general.general_rouge_l", scope, row.generalMean, n);
    push("guided_vs_general.difference", scope, row.difference, n);
    push("guided_vs_general.p_paired", scope, row.pValuePaired, n);
    push("guided_vs_general.p_unpaired", scope, row.pValueUnpaired, n);
  }

  for (const row of report.iclThresholds ?? []) {
    const scope = scopeOf({ ...row, judge: EFFECTIVE_JUDGE });
    push("icl_threshold.threshold", scope, row.threshold, { denominator: row.points.length });
    push("icl_threshold.highest_without_gain", scope, row.highestWithoutGain, {
      denominator: row.points.length,
    });
    for (const point of row.points) {
      const at = scopeOf({ ...row, shots: point.shots, otherShots: 0, judge: EFFECTIVE_JUDGE });
      push("icl_threshold.memorization_rate", at, point.memorizationRate);
      push("icl_threshold.gain", at, point.gain);
      push("icl_threshold.gain_p", at, point.pValue);
    }
  }

  for (const row of report.memorizationByTarget ?? []) {
    const scope = scopeOf({
      ...row,
      measure: MemorizationMeasure.EXACT_OR_NEAR_EXACT,
      judge: EFFECTIVE_JUDGE,
      group: `${row.groupBy === "LABEL" ? "label" : "length"}=${row.group}`,
    });
    push("memorization_by_target.rate", scope, row.rate, {
      numerator: row.memorized,
      denominator: row.instances,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
  }

  for (const row of report.performanceVsZeroShot ?? []) {
    const scope = scopeOf({ ...row, otherShots: 0 });
    push("performance_vs_zero_shot.difference", scope, row.difference, { denominator: row.pairs });
    push("performance_vs_zero_shot.mcnemar_p", scope, row.pValue, {
      numerator: row.onlyKShot,
      denominator: row.onlyKShot + row.onlyZeroShot,
    });
  }

  for (const row of report.transitionRates) {
    const scope = scopeOf({
      ...row,
      shots: row.fromShots,
      otherShots: row.toShots,
      judge: EFFECTIVE_JUDGE,
    });
    push("transition.near_exact_to_exact", scope, row.rate, {
      numerator: row.becameExact,
      denominator: row.nearExact,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
    push("transition.inexact_to_exact", scope, row.baselineRate, {
      numerator: row.inexactBecameExact,
      denominator: row.inexact,
      ciLow: row.baselineCiLow,
      ciHigh: row.baselineCiHigh,
    });
    push("transition.difference", scope, row.difference, {
      ciLow: row.differenceCiLow,
      ciHigh: row.differenceCiHigh,
    });
    push("transition.fisher_p", scope, row.pValue);
  }

  for (const row of report.contamination) {
    const scope = scopeOf({ ...row, judge: EFFECTIVE_JUDGE });
    push("contamination.contaminated", scope, row.contaminated ? 1 : 0, { denominator: row.subsetJudged });
    push("contamination.subset_exact", scope, row.exact, {
      numerator: row.exact,
      denominator: row.subsetJudged,
    });
    push("contamination.subset_near_exact", scope, row.nearExact, {
      numerator: row.nearExact,
      denominator: row.subsetJudged,
    });
    push("contamination.rate", scope, row.rate, {
      numerator: row.memorizedInstances,
      denominator: row.instances,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
  }

  for (const row of report.quiz ?? []) {
    const scope = scopeOf({ ...row, group: `options=${row.optionSetId}` });
    const n = { denominator: row.instances };
    const best = row.compensators.find((compensator) => compensator.letter === row.best);
    push("quiz.upper", scope, row.upper, { numerator: best?.hits ?? null, ...n });
    push("quiz.lower", scope, row.lower, n);
    push("quiz.kappa", scope, row.kappa, n);
    push("quiz.options_given_up", scope, row.optionsGivenUp, {
      numerator: row.optionsGivenUp,
      denominator: row.sampledInstances,
    });
    push("quiz.original_among_options", scope, row.originalAmongOptions, {
      numerator: row.originalAmongOptions,
      denominator: row.rejectedGenerations + row.instances,
    });
    for (const [index, count] of row.bias.entries())
      push(
        "quiz.bias_share",
        { ...scope, group: `letter=${"ABCDE"[index]}` },
        row.instances ? count / row.instances : null,
        {
          numerator: count,
          ...n,
        },
      );
  }
  return rows;
}

/** Every metric name metricRowsOf can write (for documentation, filters and tests). */
export const METRIC_NAMES = [
  "memorization.rate",
  "memorization.rate.between_sample_sd",
  "memorization.exact_share",
  "memorization.near_exact_share",
  "memorization.inexact_share",
  "memorization.unjudged",
  "memorization.rate_by_regime",
  "memorization.rate_by_regime.between_sample_sd",
  "memorization.by_regime.exact_share",
  "memorization.by_regime.near_exact_share",
  "memorization.by_regime.inexact_share",
  "memorization.by_regime.unjudged",
  "performance.accuracy",
  "performance.mean_accuracy",
  "performance.accuracy_sd",
  "performance.accuracy.between_sample_sd",
  "performance.unparseable_share",
  "performance.failed",
  "memorized_vs_not.accuracy_memorized",
  "memorized_vs_not.accuracy_not_memorized",
  "memorized_vs_not.memorized_instances",
  "memorized_vs_not.difference",
  "memorized_vs_not.instance_accuracy_memorized",
  "memorized_vs_not.instance_accuracy_not_memorized",
  "memorized_vs_not.fisher_p",
  "memorized_vs_not.fisher_p_holm",
  "correlation.pearson",
  "correlation.pearson_p",
  "correlation.pearson_p_holm",
  "correlation.pearson_permutation_p",
  "correlation.spearman",
  "correlation.spearman_p",
  "correlation.spearman_p_holm",
  "setting_comparison.mcnemar_p",
  "setting_comparison.mcnemar_p_holm",
  "setting_comparison.pairs",
  "setting_comparison.difference",
  "zero_vs_few_shot.mcnemar_p",
  "zero_vs_few_shot.mcnemar_p_holm",
  "zero_vs_few_shot.pairs",
  "zero_vs_few_shot.difference",
  "memorization_non_trivial.rate",
  "memorization_non_trivial.trivial_left_out",
  "control.no_memory_floor",
  "control.memorized_above_floor",
  "control.eligible_rate",
  "replication_verdict.contaminated",
  "replication_verdict.cannot_tell",
  "replication_verdict.p_value",
  "replication_verdict.minimum_detectable_rate",
  "guided_vs_general.guided_rouge_l",
  "guided_vs_general.general_rouge_l",
  "guided_vs_general.difference",
  "guided_vs_general.p_paired",
  "guided_vs_general.p_unpaired",
  "icl_threshold.threshold",
  "icl_threshold.highest_without_gain",
  "icl_threshold.memorization_rate",
  "icl_threshold.gain",
  "icl_threshold.gain_p",
  "memorization_by_target.rate",
  "control.dataset_rate",
  "control.control_rate",
  "control.difference",
  "control.fisher_p",
  "control.fisher_p_holm",
  "performance_vs_zero_shot.difference",
  "performance_vs_zero_shot.mcnemar_p",
  "transition.near_exact_to_exact",
  "transition.inexact_to_exact",
  "transition.difference",
  "transition.fisher_p",
  "contamination.contaminated",
  "contamination.subset_exact",
  "contamination.subset_near_exact",
  "contamination.rate",
  "contamination.rule_false_positive_rate",
  "quiz.upper",
  "quiz.lower",
  "quiz.kappa",
  "quiz.options_given_up",
  "quiz.original_among_options",
  "quiz.bias_share",
] as const;
