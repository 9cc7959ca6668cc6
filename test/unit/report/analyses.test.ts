import { RandomStream } from "../../../src/common/random";
import {
  breakdown,
  CellCount,
  compareExperiments,
  contamination,
  contaminationSubset,
  guidedGeneralCells,
  guidedVsGeneral,
  InstanceOutcome,
  iclThresholds,
  instanceVerdict,
  lengthBucket,
  memorizationByTarget,
  memorizedVsNot,
  nonTrivialMemorization,
  orderGuidedGeneralRows,
  performanceRows,
  performanceVsZeroShot,
  SampleInfo,
  settingComparisons,
  sharedDatasets,
  transitionRates,
  zeroVsK,
} from "../../../src/report/analyses";
import { adjustForMultipleComparisons, StudyReport } from "../../../src/report/study-report";
import { PerformanceComparisonRow } from "../../../src/report/tables/performance-vs-zero-shot";
import { newcombeDifference, wilsonInterval } from "../../../src/statistics/intervals";
import { fisherExact, holmAdjust, mcnemarExact } from "../../../src/statistics/tests";
import { BreakdownGroup, MemorizationMeasure } from "../../../src/study/measures";
import { MemorizationSetting } from "../../../src/study/settings";
import { isTrivialTarget } from "../../../src/study/targets";

const FULL = MemorizationSetting.FULL_INFORMATION;
const PAIRS = MemorizationSetting.SEGMENT_PAIRS_AND_LABELS;
const ONLY = MemorizationSetting.ONLY_SEGMENT_PAIRS;

const samples = new Map<string, SampleInfo>([
  ["s1", { sampleId: "s1", sampleName: null, sampleSeed: "1", dataset: "RTE" }],
  ["s2", { sampleId: "s2", sampleName: "second", sampleSeed: "2", dataset: "RTE" }],
]);

const cell = (
  sampleId: string,
  setting: MemorizationSetting,
  shots: number,
  exact: number,
  nearExact: number,
  inexact: number,
  unjudged = 0,
): CellCount => ({
  sampleId,
  setting,
  shots,
  runs: 1,
  maxRepeats: 1,
  unsureNearExact: 0,
  unsureInexact: 0,
  exact,
  nearExact,
  inexact,
  unjudged,
});

/** Instance outcomes with one completion each: verdicts as a string, E / N / I. */
function outcomes(
  sampleId: string,
  setting: MemorizationSetting,
  shots: number,
  verdicts: string,
): InstanceOutcome[] {
  return [...verdicts].map((verdict, index) => ({
    sampleId,
    setting,
    shots,
    sampledInstanceId: `i${index}`,
    judged: 1,
    exact: verdict === "E" ? 1 : 0,
    nearExact: verdict === "N" ? 1 : 0,
  }));
}

describe("instance verdicts", () => {
  it("is the completion's verdict with one completion, and the majority with several (ties go up)", () => {
    expect(instanceVerdict({ judged: 1, exact: 1, nearExact: 0 })).toBe("EXACT");
    expect(instanceVerdict({ judged: 1, exact: 0, nearExact: 1 })).toBe("NEAR_EXACT");
    expect(instanceVerdict({ judged: 1, exact: 0, nearExact: 0 })).toBe("INEXACT");
    expect(instanceVerdict({ judged: 0, exact: 0, nearExact: 0 })).toBeNull();
    expect(instanceVerdict({ judged: 2, exact: 1, nearExact: 0 })).toBe("EXACT");
    expect(instanceVerdict({ judged: 3, exact: 1, nearExact: 1 })).toBe("NEAR_EXACT");
    expect(instanceVerdict({ judged: 3, exact: 1, nearExact: 0 })).toBe("INEXACT");
  });
});

describe("breakdown", () => {
  const cells = [
    cell("s1", FULL, 0, 1, 1, 7, 1),
    cell("s1", FULL, 25, 3, 2, 5),
    cell("s2", FULL, 0, 2, 0, 8),
    cell("s2", FULL, 25, 4, 4, 2),
  ];

  it("reports each sample apart, with Wilson intervals where each instance counts once, and a pooled row", () => {
    const rows = breakdown(
      cells,
      samples,
      null,
      {},
      [BreakdownGroup.DATASET, BreakdownGroup.SAMPLE, BreakdownGroup.SETTING, BreakdownGroup.SHOTS],
      MemorizationMeasure.EXACT_OR_NEAR_EXACT,
    );
    expect(
      rows.map((row) => [row.sampleId, row.shots, row.n, row.memorized, row.unjudged, row.samples]),
    ).toEqual([
      ["s1", 0, 9, 2, 1, 1],
      ["s1", 25, 10, 5, 0, 1],
      ["s2", 0, 10, 2, 0, 1],
      ["s2", 25, 10, 8, 0, 1],
      [null, 0, 19, 4, 1, 2],
      [null, 25, 20, 13, 0, 2],
    ]);
    expect(rows[0]).toMatchObject({
      sampleSeed: "1",
      intervalMethod: "WILSON",
      betweenSampleStandardDeviation: null,
    });
    expect(rows[0].ciLow).toBeCloseTo(wilsonInterval(2, 9)!.low, 12);
    // The pooled row: rates 0.5 and 0.8 between the samples (sd 0.2121); Wilson still (one cell per sample).
    expect(rows[5].betweenSampleStandardDeviation).toBeCloseTo(Math.abs(0.5 - 0.8) / Math.SQRT2, 12);
    expect(rows[5].intervalMethod).toBe("WILSON");
  });

  it("uses a cluster bootstrap over instances when a row pools several k of the same instances", () => {
    const instances = [...outcomes("s1", FULL, 0, "ENIIIIIII"), ...outcomes("s1", FULL, 25, "EEENNIIIII")];
    const cellsOfS1 = [cell("s1", FULL, 0, 1, 1, 7), cell("s1", FULL, 25, 3, 2, 5)];
    const rows = breakdown(
      cellsOfS1,
      samples,
      instances,
      {},
      [BreakdownGroup.SETTING],
      MemorizationMeasure.EXACT_OR_NEAR_EXACT,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      n: 19,
      memorized: 7,
      intervalMethod: "CLUSTER_BOOTSTRAP",
      sampleId: "s1",
    });
    expect(rows[0].ciLow).toBeLessThan(7 / 19);
    expect(rows[0].ciHigh).toBeGreaterThan(7 / 19);
    expect(() =>
      breakdown(
        cellsOfS1,
        samples,
        null,
        {},
        [BreakdownGroup.SETTING],
        MemorizationMeasure.EXACT_OR_NEAR_EXACT,
      ),
    ).toThrow(/needs instance outcomes/);
  });

  it("counts a dataset instance two pooled samples drew once: one cluster, not two", () => {
    const shared = (sampleId: string, withIds: boolean) =>
      outcomes(sampleId, FULL, 0, "EEEIIIIIII").map((outcome, i) => ({
        ...outcome,
        instanceId: withIds ? `instance-${i}` : undefined,
      }));
    const both = [cell("s1", FULL, 0, 3, 0, 7), cell("s2", FULL, 0, 3, 0, 7)];
    const pooled = (withIds: boolean) =>
      breakdown(
        both,
        samples,
        [...shared("s1", withIds), ...shared("s2", withIds)],
        {},
        [BreakdownGroup.DATASET, BreakdownGroup.SETTING, BreakdownGroup.SHOTS],
        MemorizationMeasure.EXACT_OR_NEAR_EXACT,
      )[0];
    const once = pooled(true);
    const twice = pooled(false);
    expect(once).toMatchObject({ n: 20, memorized: 6, samples: 2, intervalMethod: "CLUSTER_BOOTSTRAP" });
    // Ten instances, not twenty: the interval is as wide as one sample's ten clusters make it.
    expect(once.ciHigh! - once.ciLow!).toBeGreaterThan(twice.ciHigh! - twice.ciLow! + 0.05);
  });

  it("counts exact matches only when asked, and filters", () => {
    const rows = breakdown(
      cells,
      samples,
      null,
      { shots: [25] },
      [BreakdownGroup.SAMPLE, BreakdownGroup.SHOTS],
      MemorizationMeasure.EXACT_ONLY,
    );
    expect(rows.map((row) => [row.sampleId, row.n, row.memorized])).toEqual([
      ["s1", 10, 3],
      ["s2", 10, 4],
      [null, 20, 7],
    ]);
  });
});

describe("paired comparisons", () => {
  const data = [
    ...outcomes("s1", FULL, 0, "EEIIIIIIII"),
    ...outcomes("s1", PAIRS, 0, "INIIIIIIII"),
    ...outcomes("s1", FULL, 25, "EEEEENIIII"),
    ...outcomes("s1", ONLY, 0, "IIIIIIII"), // two instances unjudged
  ];

  it("compares settings on the instances judged in both, with McNemar's exact test", () => {
    const rows = settingComparisons(data, samples);
    const fullVsPairs = rows.find((row) => row.settingA === FULL && row.settingB === PAIRS)!;
    // FULL memorizes i0, i1; PAIRS memorizes i1: both 1, only FULL 1, only PAIRS 0, neither 8.
    expect(fullVsPairs).toMatchObject({
      shotsA: 0,
      shotsB: 0,
      pairs: 10,
      bothMemorized: 1,
      onlyA: 1,
      onlyB: 0,
      neither: 8,
    });
    expect(fullVsPairs.pValue).toBe(mcnemarExact(1, 0));
    const fullVsOnly = rows.find((row) => row.settingA === FULL && row.settingB === ONLY)!;
    expect(fullVsOnly.pairs).toBe(8);
    expect(rows).toHaveLength(3); // three pairs of settings at k = 0; k = 25 has one setting
  });

  it("compares k = 0 with each k > 0 per setting", () => {
    const rows = zeroVsK(data, samples);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      settingA: FULL,
      shotsA: 0,
      shotsB: 25,
      bothMemorized: 2,
      onlyA: 0,
      onlyB: 4,
      neither: 4,
    });
    expect(rows[0].pValue).toBeCloseTo(mcnemarExact(0, 4)!, 12);
    expect(rows[0].rateB).toBeCloseTo(0.6, 12);
  });

  it("gives the near-exact -> exact rate of every pair of k", () => {
    const rows = transitionRates(
      [
        ...outcomes("s1", FULL, 0, "NNNNIE"),
        ...outcomes("s1", FULL, 25, "ENEIIE"),
        ...outcomes("s1", FULL, 50, "EEEEII"),
      ],
      samples,
    );
    expect(rows.map((row) => [row.fromShots, row.toShots, row.nearExact, row.becameExact])).toEqual([
      [0, 25, 4, 2],
      [0, 50, 4, 4],
      [25, 50, 1, 1],
    ]);
    expect(rows[0].ciLow).toBeCloseTo(wilsonInterval(2, 4)!.low, 12);
  });

  it("sets each near-exact -> exact rate against its baseline, inexact -> exact, with a test between them", () => {
    const [row] = transitionRates(
      [...outcomes("s1", FULL, 0, "NNNNIIIIII"), ...outcomes("s1", FULL, 25, "EEENEIIIII")],
      samples,
    );
    expect(row).toMatchObject({ nearExact: 4, becameExact: 3, inexact: 6, inexactBecameExact: 1 });
    expect(row.baselineRate).toBeCloseTo(1 / 6, 12);
    expect(row.baselineCiLow).toBeCloseTo(wilsonInterval(1, 6)!.low, 12);
    const difference = newcombeDifference(3, 4, 1, 6)!;
    expect(row.difference).toBeCloseTo(3 / 4 - 1 / 6, 12);
    expect([row.differenceCiLow, row.differenceCiHigh]).toEqual([difference.low, difference.high]);
    // scipy.stats.fisher_exact([[3, 1], [1, 5]]).pvalue
    expect(row.pValue).toBeCloseTo(0.19047619047619047, 12);
    // No baseline without inexact instances: said as null, not as a rate of 0.
    const [alone] = transitionRates(
      [...outcomes("s1", FULL, 0, "NN"), ...outcomes("s1", FULL, 25, "EN")],
      samples,
    );
    expect(alone).toMatchObject({ inexact: 0, baselineRate: null, difference: null, pValue: null });
  });
});

describe("performance with k demonstrations against zero-shot", () => {
  /** One instance's repeats at one k: "CCW" is two correct of three. */
  const answered = (shots: number, repeats: string[]) =>
    repeats.map((answers, index) => ({
      sampleId: "s1",
      shots,
      sampledInstanceId: `i${index}`,
      n: answers.length,
      correct: [...answers].filter((answer) => answer === "C").length,
    }));

  it("pairs the instances answered at both k, each correct by the majority of its repeats, with McNemar", () => {
    const rows = performanceVsZeroShot(
      [
        // k = 0: i0-i3 correct (i3 by 2 of 3), i4-i7 wrong (i7 by 1 of 3).
        ...answered(0, ["CCC", "CCC", "CCC", "CCW", "WWW", "WWW", "WWW", "CWW"]),
        // k = 25: i0 wrong now; i4-i7 all correct: 1 lost, 4 gained; i8 was never asked at k = 0.
        ...answered(25, ["WWW", "CCC", "CCC", "CCC", "CCC", "CCC", "CCC", "CCW", "CCC"]),
      ],
      samples,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      shots: 25,
      pairs: 8,
      bothCorrect: 3,
      onlyZeroShot: 1,
      onlyKShot: 4,
      neither: 0,
      accuracyZeroShot: 0.5,
      accuracyKShot: 7 / 8,
    });
    expect(rows[0].difference).toBeCloseTo(3 / 8, 12);
    // scipy.stats.binomtest(1, 5, 0.5).pvalue
    expect(rows[0].pValue).toBeCloseTo(0.375, 12);
    expect(rows[0].pValue).toBe(mcnemarExact(4, 1));
  });

  it("compares nothing without k = 0, and gives no p without a discordant instance", () => {
    expect(performanceVsZeroShot(answered(25, ["CCC"]), samples)).toEqual([]);
    const [row] = performanceVsZeroShot([...answered(0, ["CCC"]), ...answered(25, ["CCC"])], samples);
    expect(row).toMatchObject({ pairs: 1, bothCorrect: 1, pValue: null, difference: 0 });
  });
});

describe("non-trivial targets", () => {
  it("calls punctuation and one or two words trivial, three words not", () => {
    expect(isTrivialTarget("?")).toBe(true);
    expect(isTrivialTarget(" shadows ? ")).toBe(true);
    expect(isTrivialTarget("Mount Everest.")).toBe(true);
    expect(isTrivialTarget("the Pacific Ocean")).toBe(false);
    expect(isTrivialTarget("--- !!")).toBe(true);
    expect(isTrivialTarget("two words", 2)).toBe(false);
  });

  it("rates memorization over the non-trivial instances and counts the trivial ones left out", () => {
    const cell = outcomes("s1", FULL, 0, "EENIIE");
    const [row] = nonTrivialMemorization(cell, new Set(["i0", "i5"]), samples);
    // i0 and i5 (both exact) are trivial: of i1-i4, i1 exact and i2 near-exact are memorized.
    expect(row).toMatchObject({ instances: 4, memorized: 2, trivialInstances: 2, rate: 0.5 });
    expect(row.ciLow).toBeCloseTo(wilsonInterval(2, 4)!.low, 12);
    const [all] = nonTrivialMemorization(cell, new Set(), samples);
    expect(all).toMatchObject({ instances: 6, memorized: 4, trivialInstances: 0 });
  });
});

describe("memorization by target", () => {
  it("splits each cell by label and by reference length, each instance once", () => {
    const data = outcomes("s1", FULL, 0, "EINIEI");
    const targets = new Map(
      [
        ["a", 1],
        ["a", 4],
        ["b", 4],
        ["b", 12],
        ["a", 30],
        ["b", 0],
      ].map(([label, words], index) => [`i${index}`, { label: label as string, words: words as number }]),
    );
    const rows = memorizationByTarget(data, targets, samples);
    expect(rows.map((row) => [row.groupBy, row.group, row.instances, row.memorized])).toEqual([
      ["LABEL", "a", 3, 2],
      ["LABEL", "b", 3, 1],
      ["REFERENCE_LENGTH", "0-2", 2, 1],
      ["REFERENCE_LENGTH", "3-5", 2, 1],
      ["REFERENCE_LENGTH", "11-20", 1, 0],
      ["REFERENCE_LENGTH", "21+", 1, 1],
    ]);
    expect(rows[0].ciLow).toBeCloseTo(wilsonInterval(2, 3)!.low, 12);
    expect([2, 3, 5, 6, 10, 11, 20, 21].map(lengthBucket)).toEqual([
      "0-2",
      "3-5",
      "3-5",
      "6-10",
      "6-10",
      "11-20",
      "11-20",
      "21+",
    ]);
  });
});

describe("comparing experiments", () => {
  it("pairs the dataset instances both ran, cell by cell, with McNemar on the discordant ones", () => {
    const withIds = (rows: InstanceOutcome[]) =>
      rows.map((row) => ({ ...row, instanceId: row.sampledInstanceId }));
    const a = {
      experimentId: "A",
      outcomes: withIds(outcomes("s1", FULL, 0, "EEEEEENIII")),
      performance: [],
      samples,
    };
    // B drew another sample of the same dataset: its instances meet A's through their dataset instance.
    const b = {
      experimentId: "B",
      outcomes: withIds(outcomes("s2", FULL, 0, "EIIIIIIII")),
      performance: [],
      samples,
    };
    expect(sharedDatasets(a, b)).toEqual(["RTE"]);
    const rows = compareExperiments(a, b);
    expect(rows.map((row) => [row.measure, row.pairs, row.both, row.onlyA, row.onlyB])).toEqual([
      ["EXACT_ONLY", 9, 1, 5, 0],
      ["EXACT_OR_NEAR_EXACT", 9, 1, 6, 0],
    ]);
    expect(rows[1].difference).toBeCloseTo(6 / 9, 12);
    expect(rows[1].pValue).toBeCloseTo(mcnemarExact(6, 0)!, 12);
  });
});

describe("the ICL threshold", () => {
  it("is the lowest memorization level with a significant gain over zero-shot", () => {
    const data = [
      ...outcomes("s1", FULL, 0, "IIIIIIIIII"),
      ...outcomes("s1", FULL, 5, "EEIIIIIIII"),
      ...outcomes("s1", FULL, 20, "EEEEENIIII"),
      ...outcomes("s1", FULL, 50, "EEEEEEEIII"),
    ];
    const gain = (shots: number, difference: number, pValue: number | null) =>
      ({ sampleId: "s1", shots, difference, pValue }) as PerformanceComparisonRow;
    const [row] = iclThresholds(
      data,
      [gain(5, 0.1, 0.3), gain(20, 0.3, 0.01), gain(50, -0.2, 0.001)],
      samples,
    );
    expect(row.points.map((point) => [point.shots, point.memorizationRate, point.significantGain])).toEqual([
      [5, 0.2, false],
      [20, 0.6, true],
      [50, 0.7, false], // a significant loss is not a gain
    ]);
    expect(row.threshold).toBe(0.6);
    expect(row.highestWithoutGain).toBe(0.7);
    expect(iclThresholds(data, [gain(5, 0.1, 0.3)], samples)[0].threshold).toBeNull();
    expect(iclThresholds(data, [], samples)).toEqual([]);
  });
});

describe("contamination", () => {
  const ids = Array.from({ length: 200 }, (_, i) => `i${i}`);

  it("draws a fixed 10-instance subset from the sample's seed", () => {
    const subset = contaminationSubset("42", ids);
    expect(subset.size).toBe(10);
    expect(contaminationSubset("42", ids)).toEqual(subset);
    expect(contaminationSubset("43", ids)).not.toEqual(subset);
    expect(contaminationSubset("42", ids.slice(0, 4)).size).toBe(4);
  });

  it("applies the rule to the subset only, and reports the whole sample's rate beside it", () => {
    const subset = contaminationSubset("42", ids);
    const verdicts = ids.map((id) => (subset.has(id) ? "I" : "E")).join(""); // every exact is outside the subset
    const rows = contamination(outcomes("s1", FULL, 0, verdicts), new Map([["s1", subset]]), samples);
    expect(rows[0]).toMatchObject({
      subsetJudged: 10,
      exact: 0,
      nearExact: 0,
      contaminated: false,
      instances: 200,
      memorizedInstances: 190,
    });
    const inSubset = [...subset];
    const two = ids.map((id) => (id === inSubset[0] || id === inSubset[1] ? "N" : "I")).join("");
    expect(contamination(outcomes("s1", FULL, 0, two), new Map([["s1", subset]]), samples)[0]).toMatchObject({
      nearExact: 2,
      contaminated: true,
    });
    const one = ids.map((id) => (id === inSubset[3] ? "N" : "I")).join("");
    expect(
      contamination(outcomes("s1", FULL, 0, one), new Map([["s1", subset]]), samples)[0].contaminated,
    ).toBe(false);
  });
});

describe("memorized vs not", () => {
  it("splits the performance completions of the same sample and k by the instance's verdict", () => {
    const memorization = outcomes("s1", FULL, 25, "EENIII");
    const performance = ["i0", "i1", "i2", "i3", "i4", "i5"].map((id, index) => ({
      sampleId: "s1",
      shots: 25,
      sampledInstanceId: id,
      n: 3,
      correct: [3, 3, 2, 1, 0, 1][index],
    }));
    const [row] = memorizedVsNot(memorization, performance, samples);
    expect(row.memorized).toEqual({ instances: 3, n: 9, correct: 8, accuracy: 8 / 9, correctInstances: 3 });
    expect(row.notMemorized).toEqual({
      instances: 3,
      n: 9,
      correct: 2,
      accuracy: 2 / 9,
      correctInstances: 0,
    });
    // Over instances, each correct by the majority of its repeats: 3 of 3 against 0 of 3.
    const expected = newcombeDifference(3, 3, 0, 3)!;
    expect(row.difference).toBeCloseTo(expected.difference, 12);
    expect(row.differenceCiLow).toBeCloseTo(expected.low, 12);
    expect(row.pValue).toBeCloseTo(fisherExact(3, 0, 0, 3)!, 12);
  });

  it("rejects a true null at about alpha, with repeats that agree (temperature 0)", () => {
    // 200 instances, 35% memorized, every instance right with probability 0.6 whatever its verdict, and its
    // three repeats identical: counting completions rejected at 0.235; counting instances must not.
    const random = new RandomStream(20261201);
    const uniform = () => random.integer(0, 999_999) / 1_000_000;
    const simulations = 4_000;
    let rejected = 0;
    for (let s = 0; s < simulations; s += 1) {
      const verdicts = Array.from({ length: 200 }, () => (uniform() < 0.35 ? "E" : "I")).join("");
      const memorization = outcomes("s1", FULL, 25, verdicts);
      const performance = memorization.map((outcome) => {
        const right = uniform() < 0.6;
        return {
          sampleId: "s1",
          shots: 25,
          sampledInstanceId: outcome.sampledInstanceId,
          n: 3,
          correct: right ? 3 : 0,
        };
      });
      const [row] = memorizedVsNot(memorization, performance, samples);
      if (row.pValue !== null && row.pValue < 0.05) rejected += 1;
    }
    const rate = rejected / simulations;
    // 0.040 here (scipy's fisher_exact on the same null: 0.044 over 4,000 simulations).
    expect(rate).toBeGreaterThanOrEqual(0.03);
    expect(rate).toBeLessThanOrEqual(0.07);
  });
});

describe("performance", () => {
  const repeat = (sampleId: string, shots: number, r: number, n: number, correct: number, failed = 0) => ({
    sampleId,
    shots,
    repeat: r,
    n,
    correct,
    unparseable: 1,
    failed,
  });

  it("gives Wilson for one repeat, a cluster bootstrap for several, and the failed count beside the rate", () => {
    const one = performanceRows([repeat("s1", 0, 0, 10, 7, 2)], [], samples);
    expect(one[0]).toMatchObject({
      n: 10,
      correct: 7,
      failed: 2,
      unparseable: 1,
      accuracy: 0.7,
      intervalMethod: "WILSON",
    });
    const instances = Array.from({ length: 10 }, (_, i) => ({
      sampleId: "s1",
      shots: 0,
      sampledInstanceId: `i${i}`,
      n: 2,
      correct: i < 7 ? 2 : 0,
    }));
    const two = performanceRows([repeat("s1", 0, 0, 10, 7), repeat("s1", 0, 1, 10, 7)], instances, samples);
    expect(two[0]).toMatchObject({
      repeats: 2,
      n: 20,
      correct: 14,
      intervalMethod: "CLUSTER_BOOTSTRAP",
      meanAccuracy: 0.7,
    });
    expect(two[0].ciHigh! - two[0].ciLow!).toBeGreaterThan(
      wilsonInterval(14, 20)!.high - wilsonInterval(14, 20)!.low,
    );
  });

  it("adds a pooled row per dataset and k when the dataset has several samples", () => {
    const rows = performanceRows([repeat("s1", 0, 0, 10, 6), repeat("s2", 0, 0, 10, 8)], [], samples);
    expect(rows.map((row) => [row.sampleId, row.n, row.correct, row.samples])).toEqual([
      ["s1", 10, 6, 1],
      ["s2", 10, 8, 1],
      [null, 20, 14, 2],
    ]);
    expect(rows[2].betweenSampleStandardDeviation).toBeCloseTo(0.2 / Math.SQRT2, 12);
  });
});

describe("multiple comparisons", () => {
  it("adjusts every p-value of the report as one Holm family and says so", () => {
    const comparison = (p: number | null) =>
      ({ pValue: p, pValueHolm: null }) as StudyReport["settingComparisons"][number];
    const report = {
      memorizedVsNotMemorized: [{ pValue: 0.01, pValueHolm: null }],
      correlations: [
        { pearsonPValue: 0.04, spearmanPValue: null, pearsonPValueHolm: null, spearmanPValueHolm: null },
      ],
      settingComparisons: [comparison(0.03)],
      zeroVsK: [comparison(0.001)],
      versusControl: [],
    } as unknown as StudyReport;
    const adjusted = adjustForMultipleComparisons(report);
    const expected = holmAdjust([0.01, 0.04, null, 0.03, 0.001]);
    expect(adjusted.memorizedVsNotMemorized[0].pValueHolm).toBeCloseTo(expected[0]!, 12);
    expect(adjusted.correlations[0].pearsonPValueHolm).toBeCloseTo(expected[1]!, 12);
    expect(adjusted.correlations[0].spearmanPValueHolm).toBeNull();
    expect(adjusted.zeroVsK[0].pValueHolm).toBeCloseTo(0.004, 12);
    expect(adjusted.hypothesisTests).toBe(4);
    expect(adjusted.multipleComparisons).toMatch(/Holm.*4 p-values/);
  });

  it("says no test ran rather than adjusting over zero p-values", () => {
    const report = {
      memorizedVsNotMemorized: [],
      correlations: [],
      settingComparisons: [],
      zeroVsK: [],
      versusControl: [],
    } as unknown as StudyReport;
    const adjusted = adjustForMultipleComparisons(report);
    expect(adjusted.hypothesisTests).toBe(0);
    expect(adjusted.multipleComparisons).toBe(
      "No hypothesis test ran in this report yet (nothing to adjust for multiple comparisons).",
    );
  });
});

describe("guided vs general, a cell at a time", () => {
  it("gives the rows of the whole, in its order, from its cells computed one by one", () => {
    const random = new RandomStream(7);
    const scores = ["s2", "s1"].flatMap((sampleId) =>
      [25, 0].flatMap((shots) =>
        Array.from({ length: 30 }, (_, i) =>
          [MemorizationSetting.FULL_INFORMATION, MemorizationSetting.GENERAL_INSTRUCTION].map((setting) => ({
            sampleId,
            setting,
            shots,
            sampledInstanceId: `${sampleId}-${i}`,
            score: random.integer(0, 100) / 100,
          })),
        ).flat(),
      ),
    );
    const whole = guidedVsGeneral(scores, samples, { resamples: 300 });
    const cells = guidedGeneralCells(scores);
    expect(cells).toHaveLength(4);
    const oneByOne = orderGuidedGeneralRows(
      cells.flatMap((cell) => guidedVsGeneral(cell, samples, { resamples: 300 })),
    );
    expect(oneByOne).toEqual(whole);
    expect(whole.map((row) => [row.sampleId, row.shots])).toEqual([
      ["s1", 0],
      ["s1", 25],
      ["s2", 0],
      ["s2", 25],
    ]);
  });
});
