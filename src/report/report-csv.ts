import { stringify } from "csv-stringify/sync";
import { ExperimentComparison, StudyReport } from "./report.types";

type CsvValue = number | boolean | null;

/**
 * The study's figures in one long CSV (experiment_id, experiment, provider, model, table, dataset, sample_id,
 * sample_seed, setting, k, regime, measure, statistic, value): tidy for notebooks, and each row says which
 * experiment and model it is of, so that the CSVs of several experiments can be concatenated.
 */
export function reportCsv(report: StudyReport): string {
  const subject = [
    report.experimentId,
    report.subject.experimentName,
    report.subject.provider,
    report.subject.requestedModel,
  ];
  const rows: (string | number | null)[][] = [
    [
      "experiment_id",
      "experiment",
      "provider",
      "model",
      "table",
      "dataset",
      "sample_id",
      "sample_seed",
      "setting",
      "shots",
      "regime",
      "measure",
      "statistic",
      "value",
    ],
  ];
  const push = (
    tableName: string,
    row: {
      dataset?: string | null;
      sampleId?: string | null;
      sampleSeed?: string | null;
      setting?: string | null;
      shots?: number | null;
      regime?: string | null;
    },
    measure: string | null,
    values: Record<string, CsvValue>,
  ) => {
    for (const [statistic, value] of Object.entries(values)) {
      rows.push([
        ...subject,
        tableName,
        row.dataset ?? null,
        row.sampleId ?? null,
        row.sampleSeed ?? null,
        row.setting ?? null,
        row.shots ?? null,
        row.regime ?? null,
        measure,
        statistic,
        value === null ? null : Number(value),
      ]);
    }
  };
  const breakdownValues = (row: StudyReport["memorization"][number]) => ({
    samples: row.samples,
    n: row.n,
    exact: row.exact,
    nearExact: row.nearExact,
    inexact: row.inexact,
    unjudged: row.unjudged,
    memorized: row.memorized,
    rate: row.rate,
    ciLow: row.ciLow,
    ciHigh: row.ciHigh,
    betweenSampleSd: row.betweenSampleStandardDeviation,
  });
  // Each memorization cell's rate with what qualifies it: the no-memory floor, the rate above it, the rate over
  // non-trivial targets, the control dataset's rate.
  const key = (row: { sampleId?: string | null; setting?: string | null; shots?: number | null }) =>
    `${row.sampleId}|${row.setting}|${row.shots}`;
  const floors = new Map((report.noMemoryFloor ?? []).map((row) => [key(row), row]));
  const nonTrivial = new Map((report.memorizationNonTrivial ?? []).map((row) => [key(row), row]));
  const controls = new Map(
    (report.versusControl ?? []).map((row) => [`${row.dataset}|${row.setting}|${row.shots}`, row]),
  );
  for (const row of report.memorization) {
    const floor = floors.get(key(row));
    const control = controls.get(`${row.dataset}|${row.setting}|${row.shots}`);
    push("memorization", row, "EXACT_OR_NEAR_EXACT", {
      ...breakdownValues(row),
      floorRate: floor?.floorRate ?? null,
      aboveFloorRate: floor?.aboveFloorRate ?? null,
      aboveFloorCiLow: floor?.aboveFloorCiLow ?? null,
      aboveFloorCiHigh: floor?.aboveFloorCiHigh ?? null,
      nonTrivialRate: nonTrivial.get(key(row))?.rate ?? null,
      controlRate: control?.controlRate ?? null,
    });
  }
  for (const row of report.memorizationExactOnly)
    push("memorization", row, "EXACT_ONLY", breakdownValues(row));
  for (const row of report.memorizationByRegime)
    push("memorization_by_regime", row, "EXACT_OR_NEAR_EXACT", breakdownValues(row));
  for (const row of report.performance)
    push("performance", row, null, {
      samples: row.samples,
      repeats: row.repeats,
      n: row.n,
      correct: row.correct,
      unparseable: row.unparseable,
      failed: row.failed,
      accuracy: row.accuracy,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
      meanAccuracy: row.meanAccuracy,
      sd: row.accuracyStandardDeviation,
      betweenSampleSd: row.betweenSampleStandardDeviation,
    });
  for (const row of report.memorizedVsNotMemorized) {
    push("memorized_vs_not", row, "memorized", {
      instances: row.memorized.instances,
      n: row.memorized.n,
      correct: row.memorized.correct,
      accuracy: row.memorized.accuracy,
    });
    push("memorized_vs_not", row, "not_memorized", {
      instances: row.notMemorized.instances,
      n: row.notMemorized.n,
      correct: row.notMemorized.correct,
      accuracy: row.notMemorized.accuracy,
    });
    push("memorized_vs_not", row, "difference", {
      difference: row.difference,
      ciLow: row.differenceCiLow,
      ciHigh: row.differenceCiHigh,
      fisherP: row.pValue,
      fisherPHolm: row.pValueHolm,
    });
  }
  for (const row of report.correlations)
    push("correlation", row, row.measure, {
      n: row.n,
      pearson: row.pearson,
      pearsonCiLow: row.pearsonCiLow,
      pearsonCiHigh: row.pearsonCiHigh,
      pearsonP: row.pearsonPValue,
      pearsonPHolm: row.pearsonPValueHolm,
      pearsonPermutationP: row.pearsonPermutationPValue,
      pearsonDescriptive: row.pearsonDescriptive,
      spearman: row.spearman,
      spearmanP: row.spearmanPValue,
      spearmanPHolm: row.spearmanPValueHolm,
    });
  for (const [tableName, list] of [
    ["setting_comparison", report.settingComparisons],
    ["zero_vs_k", report.zeroVsK],
  ] as const)
    for (const row of list)
      push(
        tableName,
        { ...row, setting: row.settingA, shots: row.shotsB },
        `${row.settingA}@${row.shotsA} vs ${row.settingB}@${row.shotsB}`,
        {
          pairs: row.pairs,
          both: row.bothMemorized,
          onlyA: row.onlyA,
          onlyB: row.onlyB,
          neither: row.neither,
          rateA: row.rateA,
          rateB: row.rateB,
          difference: row.difference ?? null,
          mcnemarP: row.pValue,
          mcnemarPHolm: row.pValueHolm,
        },
      );
  for (const row of report.memorizationNonTrivial ?? [])
    push("memorization_non_trivial", row, "EXACT_OR_NEAR_EXACT", {
      instances: row.instances,
      memorized: row.memorized,
      trivialInstances: row.trivialInstances,
      rate: row.rate,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
  for (const row of report.noMemoryFloor ?? [])
    push("control_no_memory_floor", row, "EXACT_OR_NEAR_EXACT", {
      instances: row.instances,
      memorized: row.memorized,
      rate: row.rate,
      floorInstances: row.floorInstances,
      floorByCopy: row.floorByCopy,
      floorByConstant: row.floorByConstant,
      floorByDemonstration: row.floorByDemonstration,
      trivialInstances: row.trivialInstances,
      eligibleInstances: row.eligibleInstances,
      eligibleMemorized: row.eligibleMemorized,
      eligibleRate: row.eligibleRate,
      floorRate: row.floorRate,
      floorCiLow: row.floorCiLow,
      floorCiHigh: row.floorCiHigh,
      aboveFloor: row.aboveFloor,
      aboveFloorRate: row.aboveFloorRate,
      aboveFloorCiLow: row.aboveFloorCiLow,
      aboveFloorCiHigh: row.aboveFloorCiHigh,
    });
  for (const row of report.versusControl ?? [])
    push("control_dataset", row, `control=${row.controlDataset}`, {
      instances: row.instances,
      memorized: row.memorized,
      rate: row.rate,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
      controlInstances: row.controlInstances,
      controlMemorized: row.controlMemorized,
      controlRate: row.controlRate,
      controlCiLow: row.controlCiLow,
      controlCiHigh: row.controlCiHigh,
      difference: row.difference,
      differenceCiLow: row.differenceCiLow,
      differenceCiHigh: row.differenceCiHigh,
      fisherP: row.pValue,
      fisherPHolm: row.pValueHolm ?? null,
    });
  for (const row of report.guidedVsGeneral ?? [])
    push("guided_vs_general", row, "ROUGE-L", {
      instances: row.instances,
      guidedMean: row.guidedMean,
      generalMean: row.generalMean,
      difference: row.difference,
      pValuePaired: row.pValuePaired,
      pValueUnpaired: row.pValueUnpaired,
      significant: row.significant,
      resamples: row.resamples,
    });
  for (const row of report.iclThresholds ?? []) {
    push("icl_threshold", row, "summary", {
      threshold: row.threshold,
      highestWithoutGain: row.highestWithoutGain,
    });
    for (const point of row.points)
      push("icl_threshold", { ...row, shots: point.shots }, "point", {
        memorizationRate: point.memorizationRate,
        gain: point.gain,
        gainP: point.pValue,
        significantGain: point.significantGain,
      });
  }
  for (const row of report.memorizationByTarget ?? [])
    push("memorization_by_target", row, `${row.groupBy === "LABEL" ? "label" : "length"}=${row.group}`, {
      instances: row.instances,
      memorized: row.memorized,
      rate: row.rate,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
  for (const row of report.performanceVsZeroShot ?? [])
    push("performance_vs_zero_shot", row, null, {
      pairs: row.pairs,
      bothCorrect: row.bothCorrect,
      onlyZeroShot: row.onlyZeroShot,
      onlyKShot: row.onlyKShot,
      neither: row.neither,
      accuracyZeroShot: row.accuracyZeroShot,
      accuracyKShot: row.accuracyKShot,
      difference: row.difference,
      pValue: row.pValue,
    });
  for (const row of report.transitionRates)
    push("transition_rate", { ...row, shots: row.toShots }, `from_k=${row.fromShots}`, {
      nearExact: row.nearExact,
      becameExact: row.becameExact,
      rate: row.rate,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
      inexact: row.inexact,
      inexactBecameExact: row.inexactBecameExact,
      baselineRate: row.baselineRate,
      baselineCiLow: row.baselineCiLow,
      baselineCiHigh: row.baselineCiHigh,
      difference: row.difference,
      differenceCiLow: row.differenceCiLow,
      differenceCiHigh: row.differenceCiHigh,
      pValue: row.pValue,
    });
  for (const row of report.contaminationSummary ?? []) {
    const replication = row.replication;
    if (replication) {
      push("replication_verdict", row, replication.verdict, {
        contaminated: replication.verdict === "CONTAMINATED",
        cannotTell: replication.verdict === "CANNOT_TELL",
        alpha: replication.alpha,
        allowance: replication.allowance,
        family: replication.family,
        pValue: replication.pValue,
        shots: replication.verdictShots,
        minimumDetectableRate: replication.minimumDetectableRate,
      });
      for (const test of replication.tests)
        push("replication_test", { ...row, setting: "FULL_INFORMATION", shots: test.shots }, null, {
          instances: test.instances,
          trivial: test.trivial,
          floor: test.floor,
          eligible: test.eligible,
          aboveFloor: test.aboveFloor,
          rate: test.rate,
          pValue: test.pValue,
          controlEligible: test.controlEligible,
          controlAboveFloor: test.controlAboveFloor,
          controlPValue: test.controlPValue,
        });
    }
    if (row.timeTravel)
      push("time_travel_rule", { ...row, setting: "FULL_INFORMATION", shots: row.timeTravel.shots }, null, {
        ruleMet: row.timeTravel.contaminated,
        pool: row.timeTravel.pool,
        falsePositiveRate: row.timeTravel.falsePositiveRate,
      });
  }
  for (const row of report.contamination)
    push("contamination", row, null, {
      subsetJudged: row.subsetJudged,
      exact: row.exact,
      nearExact: row.nearExact,
      contaminated: row.contaminated,
      instances: row.instances,
      memorizedInstances: row.memorizedInstances,
      rate: row.rate,
      ciLow: row.ciLow,
      ciHigh: row.ciHigh,
    });
  for (const row of report.quiz ?? [])
    push("quiz", row, null, {
      instances: row.instances,
      optionsGivenUp: row.optionsGivenUp,
      rejectedGenerations: row.rejectedGenerations,
      originalAmongOptions: row.originalAmongOptions,
      biasA: row.bias[0],
      biasB: row.bias[1],
      biasC: row.bias[2],
      biasD: row.bias[3],
      biasE: row.bias[4],
      ...Object.fromEntries(
        row.compensators.map((compensator) => [`hits${compensator.letter}`, compensator.hits]),
      ),
      upper: row.upper,
      lower: row.lower,
      kappa: row.kappa,
    });
  // The LOGPROB method: each sample's mean score and its test against the control (the measure column names the
  // score), and each label group's calibration (the regime column names the group).
  for (const row of report.contaminationSummary ?? []) {
    if (!row.logprob) continue;
    for (const score of row.logprob.scores)
      push("logprob_score", row, score.score, { instances: score.instances, mean: score.mean });
    for (const test of row.logprob.tests)
      push("logprob_test", row, test.score, {
        instances: test.instances,
        controlInstances: test.controlInstances,
        auc: test.auc,
        pValue: test.pValue,
        contaminated: test.score === "minK" ? row.logprob.verdict === "CONTAMINATED" : null,
      });
  }
  for (const row of report.logprobCalibration ?? [])
    push("logprob_calibration", { regime: row.group }, row.score, {
      members: row.members,
      nonMembers: row.nonMembers,
      auc: row.auc,
      aucLow: row.aucLow,
      aucHigh: row.aucHigh,
      tprAt1PercentFpr: row.tprAt1PercentFpr,
      tprAt5PercentFpr: row.tprAt5PercentFpr,
    });
  return stringify(rows);
}

/**
 * A comparison as one long CSV: one row per number, with both experiments, their providers and models, and
 * the cell (dataset, kind, setting, k, measure).
 */
export function comparisonCsv(comparison: ExperimentComparison): string {
  const subjects = new Map(comparison.experiments.map((e) => [e.experimentId, e.subject]));
  const rows: (string | number | null)[][] = [
    [
      "experiment_a",
      "provider_a",
      "model_a",
      "experiment_b",
      "provider_b",
      "model_b",
      "dataset",
      "kind",
      "setting",
      "shots",
      "measure",
      "statistic",
      "value",
    ],
  ];
  for (const row of comparison.rows) {
    const [a, b] = [subjects.get(row.experimentA), subjects.get(row.experimentB)];
    const values: Record<string, number | null> = {
      pairs: row.pairs,
      both: row.both,
      onlyA: row.onlyA,
      onlyB: row.onlyB,
      neither: row.neither,
      rateA: row.rateA,
      rateB: row.rateB,
      difference: row.difference,
      mcnemarP: row.pValue,
      mcnemarPHolm: row.pValueHolm,
    };
    for (const [statistic, value] of Object.entries(values))
      rows.push([
        row.experimentA,
        a?.provider ?? null,
        a?.requestedModel ?? null,
        row.experimentB,
        b?.provider ?? null,
        b?.requestedModel ?? null,
        row.dataset,
        row.kind,
        row.setting,
        row.shots,
        row.measure,
        statistic,
        value,
      ]);
  }
  return stringify(rows);
}
