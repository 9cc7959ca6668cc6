import tCdf from "@stdlib/stats-base-dists-t-cdf";
import { mean, sampleCorrelation, sampleRankCorrelation, sampleStandardDeviation } from "simple-statistics";

export interface Interval {
  low: number;
  high: number;
}

/** Wilson score interval for a proportion (95% by default); sound near 0 and 1 and for small n. */
export function wilsonInterval(successes: number, n: number, z = 1.959963984540054): Interval | null {
  if (n === 0) return null;
  const p = successes / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const margin = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - margin), high: Math.min(1, centre + margin) };
}

export interface Correlation {
  r: number | null;
  n: number;
  /** Two-sided p-value of r = 0 (t-test with n - 2 degrees of freedom); null when n < 3 or r is undefined. */
  pValue: number | null;
}

function tTestOfR(r: number, n: number): number | null {
  if (n < 3 || !Number.isFinite(r)) return null;
  if (Math.abs(r) >= 1) return 0;
  const t = (r * Math.sqrt(n - 2)) / Math.sqrt(1 - r * r);
  return 2 * (1 - tCdf(Math.abs(t), n - 2));
}

function correlation(xs: number[], ys: number[], compute: (x: number[], y: number[]) => number): Correlation {
  const n = xs.length;
  if (n < 2) return { r: null, n, pValue: null };
  const r = compute(xs, ys);
  return Number.isFinite(r) ? { r, n, pValue: tTestOfR(r, n) } : { r: null, n, pValue: null };
}

/** Pearson's r with its p-value (null when a series is constant). */
export function pearson(xs: number[], ys: number[]): Correlation {
  return correlation(xs, ys, sampleCorrelation);
}

/** Spearman's rho (Pearson on ranks, ties averaged) with a t-approximation p-value. */
export function spearman(xs: number[], ys: number[]): Correlation {
  return correlation(xs, ys, sampleRankCorrelation);
}

/** Mean and sample standard deviation (null for fewer than two values). */
export function meanAndSpread(values: number[]): { mean: number | null; standardDeviation: number | null } {
  if (values.length === 0) return { mean: null, standardDeviation: null };
  return {
    mean: mean(values),
    standardDeviation: values.length > 1 ? sampleStandardDeviation(values) : null,
  };
}

export type Regime = "ZERO_SHOT" | "FEW_SHOT" | "MANY_SHOT";

/** The study's regimes: k = 0 zero-shot, k <= 50 few-shot (25, 50), larger many-shot (100, 200). */
export function regimeOf(shots: number): Regime {
  if (shots === 0) return "ZERO_SHOT";
  return shots <= 50 ? "FEW_SHOT" : "MANY_SHOT";
}
