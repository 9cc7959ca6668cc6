import tCdf from "@stdlib/stats-base-dists-t-cdf";
import { sampleCorrelation, sampleRankCorrelation } from "simple-statistics";
import { percentileBootstrap } from "./bootstrap";
import { Interval } from "./intervals";

export interface Correlation {
  r: number | null;
  n: number;
  /** Two-sided p-value of "no correlation"; null when n < 3 or r is undefined. */
  pValue: number | null;
  /** How the p-value was computed. */
  pValueMethod: "t-distribution" | "exact permutation" | null;
}

const NONE = (n: number): Correlation => ({ r: null, n, pValue: null, pValueMethod: null });

function tTestOfR(r: number, n: number): number | null {
  if (n < 3) return null;
  if (Math.abs(r) >= 1) return 0;
  const t = (r * Math.sqrt(n - 2)) / Math.sqrt(1 - r * r);
  return 2 * (1 - tCdf(Math.abs(t), n - 2));
}

/** Pearson's r with the t-test p-value (n - 2 degrees of freedom), as `scipy.stats.pearsonr`. */
export function pearson(xs: readonly number[], ys: readonly number[]): Correlation {
  const n = xs.length;
  if (n < 2) return NONE(n);
  const r = sampleCorrelation([...xs], [...ys]);
  if (!Number.isFinite(r)) return NONE(n);
  return { r, n, pValue: tTestOfR(r, n), pValueMethod: n < 3 ? null : "t-distribution" };
}

/** Largest n whose Spearman p-value is exact (10! = 3,628,800 orderings); above it, the t-approximation. */
export const EXACT_SPEARMAN_MAX_N = 10;

/** Ranks 1..n, ties given their average rank. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].value === order[start].value) end += 1;
    const rank = (start + end) / 2 + 1;
    for (let i = start; i <= end; i += 1) ranks[order[i].index] = rank;
    start = end + 1;
  }
  return ranks;
}

/**
 * Spearman's rho (Pearson on average ranks). For n <= 10 the p-value is exact: the share of all n! pairings of the
 * two series whose |rho| is at least the observed one (rho = 1 at n = 5 gives 2/120 = 0.0167). Above that, the
 * t-approximation.
 */
export function spearman(xs: readonly number[], ys: readonly number[]): Correlation {
  const n = xs.length;
  if (n < 2) return NONE(n);
  const r = sampleRankCorrelation([...xs], [...ys]);
  if (!Number.isFinite(r)) return NONE(n);
  if (n < 3 || n > EXACT_SPEARMAN_MAX_N)
    return { r, n, pValue: tTestOfR(r, n), pValueMethod: n < 3 ? null : "t-distribution" };
  return {
    r,
    n,
    pValue: exactRankPermutationP(averageRanks(xs), averageRanks(ys)),
    pValueMethod: "exact permutation",
  };
}

/** Two-sided exact permutation p of the rank correlation: every ordering of ys against xs (Heap's algorithm). */
function exactRankPermutationP(xRanks: readonly number[], yRanks: readonly number[]): number {
  const n = xRanks.length;
  const mean = (n + 1) / 2;
  const x = xRanks.map((rank) => rank - mean);
  const y = yRanks.map((rank) => rank - mean);
  // The denominator of rho does not change under permutation: compare the cross-product sums.
  const observed = Math.abs(x.reduce((total, value, i) => total + value * y[i], 0));
  const threshold = observed - 1e-9 * Math.max(1, observed);
  const permutation = [...y];
  const counters = new Array<number>(n).fill(0);
  const crossProduct = () => {
    let total = 0;
    for (let i = 0; i < n; i += 1) total += x[i] * permutation[i];
    return Math.abs(total);
  };
  let extreme = crossProduct() >= threshold ? 1 : 0;
  let total = 1;
  for (let i = 1; i < n; ) {
    if (counters[i] < i) {
      const j = i % 2 === 0 ? 0 : counters[i];
      [permutation[j], permutation[i]] = [permutation[i], permutation[j]];
      if (crossProduct() >= threshold) extreme += 1;
      total += 1;
      counters[i] += 1;
      i = 1;
    } else {
      counters[i] = 0;
      i += 1;
    }
  }
  return extreme / total;
}

/** Percentile bootstrap interval of Pearson's r over resampled (x, y) pairs, seeded (null for n < 3). */
export function pearsonBootstrapInterval(
  xs: readonly number[],
  ys: readonly number[],
  options: { seed?: number; resamples?: number } = {},
): Interval | null {
  if (xs.length < 3) return null;
  return percentileBootstrap(
    xs.length,
    (indices, start, end) => {
      const a: number[] = [];
      const b: number[] = [];
      for (let i = start; i < end; i += 1) {
        a.push(xs[indices[i]]);
        b.push(ys[indices[i]]);
      }
      return sampleCorrelation(a, b);
    },
    options,
  );
}
