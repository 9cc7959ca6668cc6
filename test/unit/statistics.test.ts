import { breakdown } from "../../src/metric/result.service";
import { BreakdownGroup, MemorizationMeasure } from "../../src/metric/result.types";
import { meanAndSpread, pearson, regimeOf, spearman, wilsonInterval } from "../../src/metric/statistics";
import { MemorizationSetting } from "../../src/run/run.entity";

describe("statistics", () => {
  it("computes Wilson intervals as published (8 of 10: 0.490 to 0.943; 0 of 20: 0 to 0.161)", () => {
    const a = wilsonInterval(8, 10)!;
    expect(a.low).toBeCloseTo(0.4902, 4);
    expect(a.high).toBeCloseTo(0.9433, 4);
    const b = wilsonInterval(0, 20)!;
    expect(b.low).toBe(0);
    expect(b.high).toBeCloseTo(0.1611, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it("computes Pearson's r and its two-sided p-value (scipy.stats.pearsonr reference)", () => {
    const result = pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]);
    expect(result.r).toBeCloseTo(0.7745967, 6);
    expect(result.pValue).toBeCloseTo(0.124027, 5);
    expect(pearson([1, 2, 3], [2, 4, 6])).toMatchObject({ r: 1, pValue: 0 });
  });

  it("computes Spearman's rho with ties averaged", () => {
    const result = spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]);
    expect(result.r).toBeCloseTo(0.8207827, 6);
    // t = rho * sqrt(3 / (1 - rho^2)) = 2.4881; two-sided, 3 df
    expect(result.pValue).toBeCloseTo(0.0886, 3);
  });

  it("gives no correlation for a constant series or too few points", () => {
    expect(pearson([1, 2, 3], [4, 4, 4])).toEqual({ r: null, n: 3, pValue: null });
    expect(pearson([1], [2])).toEqual({ r: null, n: 1, pValue: null });
  });

  it("gives mean and sample standard deviation", () => {
    expect(meanAndSpread([0.5, 0.7, 0.6])).toEqual({ mean: 0.6, standardDeviation: expect.closeTo(0.1, 10) });
    expect(meanAndSpread([0.5])).toEqual({ mean: 0.5, standardDeviation: null });
  });

  it("puts k in the study's regimes", () => {
    expect([0, 25, 50, 100, 200].map(regimeOf)).toEqual([
      "ZERO_SHOT",
      "FEW_SHOT",
      "FEW_SHOT",
      "MANY_SHOT",
      "MANY_SHOT",
    ]);
  });
});

describe("breakdown", () => {
  const counts = [
    {
      dataset: "rte",
      setting: MemorizationSetting.FULL_INFORMATION,
      shots: 0,
      n: 10,
      exact: 1,
      near_exact: 1,
      inexact: 7,
      unjudged: 1,
    },
    {
      dataset: "rte",
      setting: MemorizationSetting.FULL_INFORMATION,
      shots: 25,
      n: 10,
      exact: 3,
      near_exact: 2,
      inexact: 5,
      unjudged: 0,
    },
    {
      dataset: "rte",
      setting: MemorizationSetting.FULL_INFORMATION,
      shots: 50,
      n: 10,
      exact: 4,
      near_exact: 2,
      inexact: 4,
      unjudged: 0,
    },
  ];

  it("groups by regime, counts unjudged apart, and uses exact + near-exact as the numerator", () => {
    const rows = breakdown(counts, {}, [BreakdownGroup.REGIME], MemorizationMeasure.EXACT_OR_NEAR_EXACT);
    expect(rows.map((row) => [row.regime, row.n, row.memorized, row.unjudged])).toEqual([
      ["ZERO_SHOT", 9, 2, 1],
      ["FEW_SHOT", 20, 11, 0],
    ]);
    expect(rows[1].rate).toBeCloseTo(0.55, 10);
    expect(rows[1].ciLow).toBeCloseTo(wilsonInterval(11, 20)!.low, 10);
  });

  it("counts exact matches only when asked, and filters", () => {
    const rows = breakdown(counts, { shots: [25, 50] }, [], MemorizationMeasure.EXACT_ONLY);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ dataset: null, setting: null, shots: null, n: 20, memorized: 7 });
  });
});
