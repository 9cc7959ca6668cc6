import fc from "fast-check";
import { cohensKappa, interAnnotatorAgreement } from "../../../src/judge/agreement";
import { rougeLFMeasure, roundScore } from "../../../src/judge/rouge-score";
import {
  clusterBootstrapRate,
  clusterRateInterval,
  pairedBootstrapP,
  unpairedBootstrapP,
} from "../../../src/statistics/bootstrap";
import {
  pearson,
  pearsonBootstrapInterval,
  pearsonPermutationP,
  spearman,
} from "../../../src/statistics/correlation";
import { meanAndSpread } from "../../../src/statistics/descriptive";
import { fleissKappa } from "../../../src/statistics/inter-rater";
import { newcombeDifference, wilsonInterval } from "../../../src/statistics/intervals";
import { fisherExact, holmAdjust, mcnemarExact } from "../../../src/statistics/tests";
import { regimeOf } from "../../../src/study/regime";
import reference from "../../reference/statistics.json";

// Reference values: test/reference/statistics.json, written by test/reference/statistics.py (scipy, numpy).

describe("intervals", () => {
  it.each(reference.wilson)("Wilson interval of $x / $n matches scipy", ({ x, n, interval }) => {
    const result = wilsonInterval(x, n)!;
    expect(result.low).toBeCloseTo(interval[0], 10);
    expect(result.high).toBeCloseTo(interval[1], 10);
  });

  it("has no Wilson interval for n = 0", () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it.each([1, 3, 30, 200, 1000])("bounds a rate of 0 or 1 of %i exactly at 0 or 1", (n) => {
    expect(wilsonInterval(0, n)!.low).toBe(0);
    expect(wilsonInterval(n, n)!.high).toBe(1);
  });

  it.each(reference.newcombe)("Newcombe's interval of the difference of $table", ({ table, result }) => {
    const [x1, n1, x2, n2] = table;
    const difference = newcombeDifference(x1, n1, x2, n2)!;
    expect(difference.difference).toBeCloseTo(result[0], 10);
    expect(difference.low).toBeCloseTo(result[1], 10);
    expect(difference.high).toBeCloseTo(result[2], 10);
  });

  it("reproduces Newcombe's (1998) published example: 56/70 - 48/80, method 10: 0.0524 to 0.3339", () => {
    const difference = newcombeDifference(56, 70, 48, 80)!;
    expect(difference.low).toBeCloseTo(0.0524, 4);
    expect(difference.high).toBeCloseTo(0.3339, 4);
    expect(newcombeDifference(1, 2, 0, 0)).toBeNull();
  });
});

describe("tests", () => {
  it.each(reference.fisher)("Fisher's exact test of $table matches scipy", ({ table, p }) => {
    const [a, b, c, d] = table;
    expect(fisherExact(a, b, c, d)).toBeCloseTo(p, 10);
  });

  it("has no Fisher test for a table with an empty margin", () => {
    expect(fisherExact(0, 0, 3, 4)).toBeNull();
    expect(fisherExact(0, 3, 0, 4)).toBeNull();
  });

  it.each(reference.mcnemar)(
    "McNemar's exact test of b = $b, c = $c matches scipy's binomtest",
    ({ b, c, p }) => {
      expect(mcnemarExact(b, c)).toBeCloseTo(p, 10);
    },
  );

  it("has no McNemar test without discordant pairs", () => {
    expect(mcnemarExact(0, 0)).toBeNull();
  });

  it("adjusts a family by Holm's method, leaving nulls out of the family", () => {
    const adjusted = holmAdjust(reference.holm.p);
    reference.holm.adjusted.forEach((value, index) => {
      expect(adjusted[index]).toBeCloseTo(value, 12);
    });
    expect(holmAdjust([0.01, null, 0.04])).toEqual([0.02, null, 0.04]);
    expect(holmAdjust([])).toEqual([]);
  });
});

describe("correlations", () => {
  it.each(reference.spearman)(
    "Spearman's rho of $x and $y with its exact permutation p",
    ({ x, y, rho_and_p, scipy_permutation_test_p }) => {
      const result = spearman(x, y);
      expect(result.r).toBeCloseTo(rho_and_p[0], 10);
      expect(result.pValue).toBeCloseTo(rho_and_p[1], 10);
      expect(result.pValue).toBeCloseTo(scipy_permutation_test_p, 10);
      expect(result.pValueMethod).toBe("exact permutation");
    },
  );

  it("gives rho = 1 at n = 5 the exact p = 2/120, not 0", () => {
    expect(spearman([1, 2, 3, 4, 5], [10, 20, 30, 40, 50]).pValue).toBeCloseTo(1 / 60, 12);
  });

  it("uses the t-approximation above n = 10", () => {
    const xs = Array.from({ length: 11 }, (_, i) => i);
    const result = spearman(xs, [0, 2, 1, 3, 5, 4, 6, 8, 7, 9, 10]);
    expect(result.pValueMethod).toBe("t-distribution");
    expect(result.pValue).toBeGreaterThan(0);
  });

  it("computes Pearson's r and its two-sided p-value (scipy.stats.pearsonr reference)", () => {
    const result = pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]);
    expect(result.r).toBeCloseTo(0.7745967, 6);
    expect(result.pValue).toBeCloseTo(0.124027, 5);
    expect(pearson([1, 2, 3], [2, 4, 6])).toMatchObject({ r: 1, pValue: 0 });
  });

  it("gives no correlation for a constant series or too few points", () => {
    expect(pearson([1, 2, 3], [4, 4, 4])).toMatchObject({ r: null, n: 3, pValue: null });
    expect(spearman([1], [2])).toMatchObject({ r: null, n: 1, pValue: null });
  });

  it("gives Pearson's exact permutation p as scipy's pearsonr with an exact PermutationMethod", () => {
    for (const { x, y, p } of reference.pearson_permutation as { x: number[]; y: number[]; p: number }[])
      expect(pearsonPermutationP(x, y)).toBeCloseTo(p, 12);
    expect(pearsonPermutationP([1, 2], [2, 1])).toBeNull();
    expect(pearsonPermutationP([1, 2, 3], [4, 4, 4])).toBeNull();
    expect(pearsonPermutationP([1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 5, 6, 7, 8, 9])).toBeNull();
  });

  it("bootstraps Pearson's r as scipy.stats.bootstrap does (percentile), and the same seed gives the same interval", () => {
    const { x, y, interval } = reference.pearson_bootstrap;
    const ours = pearsonBootstrapInterval(x, y)!;
    // Different random streams and resample counts: the intervals agree to Monte Carlo error.
    expect(Math.abs(ours.low - interval[0])).toBeLessThan(0.01);
    expect(Math.abs(ours.high - interval[1])).toBeLessThan(0.01);
    expect(pearsonBootstrapInterval(x, y)).toEqual(ours);
    expect(pearsonBootstrapInterval(x, y, { seed: 99 })).not.toEqual(ours);
    expect(pearsonBootstrapInterval([1, 2], [3, 4])).toBeNull();
  });
});

describe("cluster bootstrap", () => {
  it("matches an independent numpy resampling of whole clusters", () => {
    const { successes, trials, interval } = reference.cluster_bootstrap;
    const ours = clusterBootstrapRate(successes.map((s, i) => ({ successes: s, trials: trials[i] })))!;
    expect(Math.abs(ours.low - interval[0])).toBeLessThan(0.01);
    expect(Math.abs(ours.high - interval[1])).toBeLessThan(0.01);
  });

  it("is wider than the binomial interval when a cluster's trials move together", () => {
    // 50 instances, each seen 4 times, all-or-nothing: really 50 observations, not 200.
    const clusters = Array.from({ length: 50 }, (_, i) => ({ successes: i % 2 === 0 ? 4 : 0, trials: 4 }));
    const cluster = clusterBootstrapRate(clusters)!;
    const naive = wilsonInterval(100, 200)!;
    expect(cluster.high - cluster.low).toBeGreaterThan(1.6 * (naive.high - naive.low));
    expect(clusterBootstrapRate([])).toBeNull();
  });

  it("falls back to Wilson by instance where the bootstrap has no width: 0 or all events, every instance alike", () => {
    const none = clusterRateInterval(Array.from({ length: 100 }, () => ({ successes: 0, trials: 4 })))!;
    expect(none).toEqual({ interval: wilsonInterval(0, 100), byInstances: true });
    expect(none.interval.high).toBeGreaterThan(0.03);
    const all = clusterRateInterval(Array.from({ length: 100 }, () => ({ successes: 6, trials: 6 })))!;
    expect(all).toEqual({ interval: wilsonInterval(100, 100), byInstances: true });
    const alike = clusterRateInterval(Array.from({ length: 60 }, () => ({ successes: 1, trials: 2 })))!;
    expect(alike.byInstances).toBe(true);
    expect(alike.interval.low).toBeCloseTo(wilsonInterval(30, 60)!.low, 12);
    const mixed = clusterRateInterval(
      Array.from({ length: 40 }, (_, i) => ({ successes: i % 4, trials: 4 })),
    )!;
    expect(mixed).toEqual({
      interval: clusterBootstrapRate(Array.from({ length: 40 }, (_, i) => ({ successes: i % 4, trials: 4 }))),
      byInstances: false,
    });
    expect(clusterRateInterval([])).toBeNull();
  });

  it("never gives an interval without width, whatever the clusters (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .integer({ min: 1, max: 6 })
            .chain((trials) =>
              fc.record({ successes: fc.integer({ min: 0, max: trials }), trials: fc.constant(trials) }),
            ),
          { minLength: 1, maxLength: 60 },
        ),
        (clusters) => {
          const { interval } = clusterRateInterval(clusters, { resamples: 200 })!;
          const rate =
            clusters.reduce((a, c) => a + c.successes, 0) / clusters.reduce((a, c) => a + c.trials, 0);
          return (
            interval.high > interval.low && interval.low <= rate + 1e-12 && rate <= interval.high + 1e-12
          );
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  it("gives what it gave before for the same data, by value, and a caller's edits change nothing kept", () => {
    const clusters = Array.from({ length: 40 }, (_, i) => ({ successes: i % 3 === 0 ? 2 : 1, trials: 2 }));
    const first = clusterBootstrapRate(clusters)!;
    const again = clusterBootstrapRate(clusters.map((cluster) => ({ ...cluster })))!;
    expect(again).toEqual(first);
    again.low = -1;
    expect(clusterBootstrapRate(clusters)).toEqual(first);
    // Other data, other interval: the data itself is the key, not the array it is in.
    clusters[0] = { successes: 0, trials: 2 };
    clusters[3] = { successes: 0, trials: 2 };
    const changed = clusterBootstrapRate(clusters)!;
    expect(changed.low).toBeLessThan(first.low);
    expect(pairedBootstrapP([0.1, 0.2, -0.05], { resamples: 500 })).toBe(
      pairedBootstrapP([0.1, 0.2, -0.05], { resamples: 500 }),
    );
    expect(pairedBootstrapP([0.1, 0.2, -0.3], { resamples: 500 })).not.toBe(
      pairedBootstrapP([0.1, 0.2, -0.05], { resamples: 500 }),
    );
    expect(unpairedBootstrapP([0.4, 0.5], [0.1, 0.2], { resamples: 500 })).toBe(0);
    expect(unpairedBootstrapP([0.1, 0.2], [0.4, 0.5], { resamples: 500 })).toBe(1);
  });
});

describe("descriptive", () => {
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

describe("Time Travel's Algorithm 1", () => {
  it.each(reference.rouge_l)(
    "ROUGE-L F of $candidate against $reference matches rouge_score's",
    ({ reference: r, candidate, f }) => {
      expect(rougeLFMeasure(r, candidate)).toBeCloseTo(f, 12);
    },
  );

  it("rounds scores to two decimals, as the authors did", () => {
    expect(roundScore(0.8333)).toBe(0.83);
    expect(roundScore(0.285714)).toBe(0.29);
  });

  it.each(reference.guided_general_bootstrap.map((c, i) => ({ ...c, i })))(
    "bootstrap p-values of case $i are numpy's (200,000 resamples) within Monte Carlo error",
    ({ guided, general, p }) => {
      const differences = guided.map((g, i) => g - general[i]);
      // 10,000 resamples: the standard error of p is at most 0.005.
      expect(Math.abs(pairedBootstrapP(differences)! - p[0])).toBeLessThan(0.015);
      expect(Math.abs(unpairedBootstrapP(guided, general)! - p[1])).toBeLessThan(0.015);
      // Seeded: the same inputs give the same p.
      expect(pairedBootstrapP(differences)).toBe(pairedBootstrapP(differences));
    },
  );

  it("has no p without data", () => {
    expect(pairedBootstrapP([])).toBeNull();
    expect(unpairedBootstrapP([], [0.1])).toBeNull();
  });
});

describe("inter-annotator agreement", () => {
  it.each(reference.fleiss_kappa.map((c, i) => ({ ...c, i })))(
    "Fleiss' kappa of table $i matches numpy",
    ({ table, kappa }) => {
      expect(fleissKappa(table)).toBeCloseTo(kappa, 12);
    },
  );

  it.each(reference.cohen_kappa.map((c, i) => ({ ...c, i })))(
    "Cohen's kappa of case $i matches numpy",
    ({ a, b, kappa }) => {
      expect(cohensKappa(a.map((x, i) => [x, b[i]] as [string, string]))).toBeCloseTo(kappa, 12);
    },
  );

  it("refuses items with different numbers of ratings", () => {
    expect(() =>
      fleissKappa([
        [2, 0],
        [1, 2],
      ]),
    ).toThrow(RangeError);
  });

  it("is Cohen's for two reviewers and Fleiss' for three, on the items every reviewer rated", () => {
    const ratings = (rows: [string, string, string][]) =>
      rows.map(([item, reviewer, verdict]) => ({ item, reviewer, verdict: verdict as "EXACT" | "INEXACT" }));
    const two = interAnnotatorAgreement(
      ratings([
        ["1", "ana", "EXACT"],
        ["1", "bo", "EXACT"],
        ["2", "ana", "INEXACT"],
        ["2", "bo", "EXACT"],
        ["3", "ana", "INEXACT"],
        ["3", "bo", "INEXACT"],
        ["4", "ana", "EXACT"], // rated once: not counted
      ]),
    );
    expect(two).toMatchObject({
      statistic: "COHEN",
      reviewers: ["ana", "bo"],
      items: 3,
      percentAgreement: 2 / 3,
    });
    expect(two.kappa).toBeCloseTo(
      cohensKappa([
        ["EXACT", "EXACT"],
        ["INEXACT", "EXACT"],
        ["INEXACT", "INEXACT"],
      ]),
      12,
    );
    const three = interAnnotatorAgreement(
      ratings([
        ["1", "ana", "EXACT"],
        ["1", "bo", "EXACT"],
        ["1", "cy", "EXACT"],
        ["2", "ana", "INEXACT"],
        ["2", "bo", "EXACT"],
        ["2", "cy", "INEXACT"],
        ["3", "ana", "INEXACT"],
        ["3", "bo", "INEXACT"], // two ratings: excluded from Fleiss' table of three
      ]),
    );
    expect(three).toMatchObject({ statistic: "FLEISS", items: 2, excluded: 1 });
    expect(three.kappa).toBeCloseTo(
      fleissKappa([
        [3, 0, 0],
        [1, 0, 2],
      ]),
      12,
    );
    expect(interAnnotatorAgreement(ratings([["1", "ana", "EXACT"]])).statistic).toBe("NONE");
    // A third reviewer who rated one item: the statistic is over that item alone, and says so.
    const late = interAnnotatorAgreement(
      ratings([
        ["1", "ana", "EXACT"],
        ["1", "bo", "EXACT"],
        ["1", "cy", "INEXACT"],
        ["2", "ana", "INEXACT"],
        ["2", "bo", "INEXACT"],
        ["3", "ana", "EXACT"],
        ["3", "bo", "INEXACT"],
      ]),
    );
    expect(late).toMatchObject({
      statistic: "FLEISS",
      reviewers: ["ana", "bo", "cy"],
      items: 1,
      excluded: 2,
    });
    // Reviewers who never rated the same item: nothing to compute, not a misleading figure.
    expect(
      interAnnotatorAgreement(
        ratings([
          ["1", "ana", "EXACT"],
          ["2", "bo", "EXACT"],
        ]),
      ),
    ).toMatchObject({ statistic: "NONE", items: 0, reviewers: ["ana", "bo"] });
  });
});
