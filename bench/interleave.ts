// Throughput with and without readers, compared window by window over the same stretch of the grid: two runs of
// the same grid, the readers switched on and off every `windowCalls` calls done, in opposite phase (where the
// first run has them on, the second has them off). Windows are counted in calls, not seconds, so that a window
// covers the same runs of the grid in both (a grid's calls go at 270-650 a second from one stretch to the next, by
// the size of the prompts in flight); and since each run has the readers on in half its windows, whatever makes
// one run faster than the other as a whole (a shared host's steal, other tenants) cancels in the geometric mean.
// Pure: the caller records the progress and switches the readers.

import tCdf from "@stdlib/stats-base-dists-t-cdf";

/** The calls done so far, read at `atMs` (the benchmark's clock); read in time order, `done` never falls. */
export interface ProgressPoint {
  atMs: number;
  done: number;
}

/** Whether the readers are on in window `index` (window k holds calls k * windowCalls up to the next). */
export const readersOn = (index: number, startOn: boolean) => (index % 2 === 1) !== startOn;

/** When `done` reached `level`, interpolated between the reads around it (NaN when it never did). */
export function timeAtDone(points: readonly ProgressPoint[], level: number): number {
  if (points.length === 0 || points[points.length - 1].done < level) return Number.NaN;
  if (points[0].done >= level) return points[0].atMs;
  for (let i = 1; i < points.length; i += 1) {
    const [before, after] = [points[i - 1], points[i]];
    if (after.done >= level)
      return before.atMs + ((after.atMs - before.atMs) * (level - before.done)) / (after.done - before.done);
  }
  return Number.NaN;
}

/**
 * Calls a second in each window, counted from `guardCalls(k)` calls into window k to its end. The first window
 * (the slots filling) and the windows past `untilDone` (the run's tail, when fewer calls are left than slots) are
 * NaN. The caller guards the windows with the readers off: what a reader started just before the switch (a
 * computation of the report, 0.1-0.4 s) belongs to the window before.
 */
export function windowRates(
  points: readonly ProgressPoint[],
  windowCalls: number,
  guardCalls: (index: number) => number,
  untilDone: number,
): number[] {
  const rates: number[] = [];
  for (let k = 0; (k + 1) * windowCalls <= untilDone; k += 1) {
    const guard = guardCalls(k);
    const from = timeAtDone(points, k * windowCalls + guard);
    const to = timeAtDone(points, (k + 1) * windowCalls);
    rates.push(k === 0 ? Number.NaN : ((windowCalls - guard) * 1000) / (to - from));
  }
  return rates;
}

/**
 * For each window rated in both runs, its rate with the readers on over its rate with them off (`first` is the run
 * that started with them on when `firstStartsOn`).
 */
export function pairedRatios(
  first: readonly number[],
  second: readonly number[],
  firstStartsOn: boolean,
): number[] {
  const ratios: number[] = [];
  for (let k = 0; k < Math.min(first.length, second.length); k += 1) {
    if (!Number.isFinite(first[k]) || !Number.isFinite(second[k])) continue;
    ratios.push(readersOn(k, firstStartsOn) ? first[k] / second[k] : second[k] / first[k]);
  }
  return ratios;
}

/** The Student t distribution's `p` quantile with `df` degrees of freedom (its CDF inverted by bisection). */
export function tQuantile(p: number, df: number): number {
  if (p === 0.5) return 0;
  if (p < 0.5) return -tQuantile(1 - p, df);
  let low = 0;
  let high = 1e4;
  for (let i = 0; i < 100; i += 1) {
    const middle = (low + high) / 2;
    if (tCdf(middle, df) < p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/**
 * The geometric mean of ratios with its 95% interval: Student's t on the logs, which holds its level with the
 * handful of windows one run gives (a percentile bootstrap over seven ratios excluded a null 15% of the time).
 */
export function geometricMeanInterval(ratios: readonly number[]): {
  mean: number;
  low: number;
  high: number;
} {
  const n = ratios.length;
  if (n < 2) return { mean: n === 1 ? ratios[0] : Number.NaN, low: Number.NaN, high: Number.NaN };
  const logs = ratios.map(Math.log);
  const mean = logs.reduce((sum, value) => sum + value, 0) / n;
  const variance = logs.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  const half = tQuantile(0.975, n - 1) * Math.sqrt(variance / n);
  return { mean: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half) };
}
