import { sampleCorrelation, sampleRankCorrelation } from "simple-statistics";
import { percentileBootstrap } from "./bootstrap";
import { tCdf } from "./distributions";
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

/** Largest n whose Pearson permutation p is computed exactly (8! = 40,320 orderings). */
export const EXACT_PEARSON_MAX_N = 8;

/**
 * Pearson's r's two-sided exact permutation p (every pairing of ys with xs): what a handful of points can say
 * without assuming normality. Null below 3 points, above EXACT_PEARSON_MAX_N, or when r is undefined.
 */
export function pearsonPermutationP(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < 3 || n > EXACT_PEARSON_MAX_N) return null;
  if (!Number.isFinite(sampleCorrelation([...xs], [...ys]))) return null;
  return exactPermutationP(xs, ys, "doubled");
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
    pValue: exactPermutationP(averageRanks(xs), averageRanks(ys), "absolute"),
    pValueMethod: "exact permutation",
  };
}

/**
 * Two-sided exact permutation p of a correlation over every ordering of ys against xs (Heap's algorithm). The
 * denominator of r does not change under permutation, so the centred cross-product sums are compared.
 * `absolute`: the share whose |r| reaches the observed |r| (Spearman's, on ranks, whose null is symmetric);
 * `doubled`: twice the smaller tail, at most 1 (scipy's `pearsonr` with an exact `PermutationMethod`).
 */
function exactPermutationP(
  xValues: readonly number[],
  yValues: readonly number[],
  twoSided: "absolute" | "doubled",
): number {
  const n = xValues.length;
  const meanOf = (values: readonly number[]) => values.reduce((total, value) => total + value, 0) / n;
  const xMean = meanOf(xValues);
  const yMean = meanOf(yValues);
  const x = xValues.map((value) => value - xMean);
  const y = yValues.map((value) => value - yMean);
  const observed = x.reduce((total, value, i) => total + value * y[i], 0);
  const tolerance = 1e-9 * Math.max(1, Math.abs(observed));
  const permutation = [...y];
  const counters = new Array<number>(n).fill(0);
  let atLeastAbsolute = 0;
  let atLeast = 0;
  let atMost = 0;
  const count = () => {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += x[i] * permutation[i];
    if (Math.abs(sum) >= Math.abs(observed) - tolerance) atLeastAbsolute += 1;
    if (sum >= observed - tolerance) atLeast += 1;
    if (sum <= observed + tolerance) atMost += 1;
  };
  count();
  let total = 1;
  for (let i = 1; i < n; ) {
    if (counters[i] < i) {
      const j = i % 2 === 0 ? 0 : counters[i];
      [permutation[j], permutation[i]] = [permutation[i], permutation[j]];
      count();
      total += 1;
      counters[i] += 1;
      i = 1;
    } else {
      counters[i] = 0;
      i += 1;
    }
  }
  return twoSided === "absolute"
    ? atLeastAbsolute / total
    : Math.min(1, (2 * Math.min(atLeast, atMost)) / total);
}

/** Percentile bootstrap interval of Pearson's r over resampled (x, y) pairs, seeded (null for n < 3 or a perfect line). */
export function pearsonBootstrapInterval(
  xs: readonly number[],
  ys: readonly number[],
  options: { seed?: number; resamples?: number } = {},
): Interval | null {
  if (xs.length < 3) return null;
  const interval = percentileBootstrap(
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
  // Every resample alike (a perfect line): no interval rather than one that claims certainty.
  return interval && interval.high > interval.low ? interval : null;
}
