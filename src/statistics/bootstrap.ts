import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { Interval, wilsonInterval } from "./intervals";

/** Resamples of every bootstrap interval: enough for a stable 95% percentile interval (Efron & Tibshirani). */
export const BOOTSTRAP_RESAMPLES = 2000;

/** The seed of the report's bootstrap intervals, so the same data always gives the same interval. */
export const BOOTSTRAP_SEED = 20_240_601;

/** Linear-interpolation quantile of sorted values (numpy's default, "linear"). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

const TWO_TO_32 = 4_294_967_296;

/**
 * Seeded draws of indices in [0, n): the top bits of a 32-bit xoroshiro128+ output scaled to n (a bias below
 * n / 2^32, negligible for any n a report sees), several times faster than rejection sampling.
 */
function indexDraws(seed: number): (n: number) => number {
  const generator = xoroshiro128plus(seed);
  return (n) => Math.floor(((generator.next() >>> 0) / TWO_TO_32) * n);
}

/**
 * A percentile bootstrap interval: `statistic` is evaluated on `resamples` draws of n indices with replacement
 * from a seeded generator; resamples where it is undefined (NaN, e.g. a constant series) are dropped. Null when
 * fewer than half the resamples give a value.
 */
export function percentileBootstrap(
  n: number,
  /** The statistic of one resample: the items at `indices[start..end)`. */
  statistic: (indices: Uint32Array, start: number, end: number) => number,
  options: { seed?: number; resamples?: number } = {},
): Interval | null {
  if (n === 0) return null;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  // The resampled indices for n items are drawn once and shared by every interval over n items.
  const indices = resampleIndices(n, resamples, options.seed ?? BOOTSTRAP_SEED);
  const values = new Float64Array(resamples);
  let kept = 0;
  for (let resample = 0; resample < resamples; resample += 1) {
    const value = statistic(indices, resample * n, resample * n + n);
    if (Number.isFinite(value)) values[kept++] = value;
  }
  if (kept < resamples / 2) return null;
  const sorted = values.subarray(0, kept).sort();
  return { low: quantile(sorted, 0.025), high: quantile(sorted, 0.975) };
}

const INDEX_CACHE = new Map<string, Uint32Array>();
const INDEX_CACHE_ENTRIES = 4_000_000;
let indexCacheSize = 0;

/**
 * `resamples` x `n` indices drawn with replacement from [0, n), seeded: the same for the same arguments (common
 * random numbers across a report's rows: each row's interval is still a percentile bootstrap of its own data).
 * Kept in memory up to 4 million indices (16 MB), the oldest dropped first.
 */
function resampleIndices(n: number, resamples: number, seed: number): Uint32Array {
  const key = `${n}/${resamples}/${seed}`;
  const cached = INDEX_CACHE.get(key);
  if (cached) return cached;
  const draw = indexDraws(seed);
  const indices = new Uint32Array(n * resamples);
  for (let i = 0; i < indices.length; i += 1) indices[i] = draw(n);
  if (indices.length <= INDEX_CACHE_ENTRIES) {
    while (indexCacheSize + indices.length > INDEX_CACHE_ENTRIES) {
      const [oldest, array] = INDEX_CACHE.entries().next().value!;
      INDEX_CACHE.delete(oldest);
      indexCacheSize -= array.length;
    }
    INDEX_CACHE.set(key, indices);
    indexCacheSize += indices.length;
  }
  return indices;
}

/** Results kept, by their exact inputs, the least recently used dropped first beyond this many. */
const REMEMBERED_LIMIT = 5_000;
const REMEMBERED = new Map<string, unknown>();

/**
 * The result of a seeded resampling for these exact inputs (written out in full in `key`, numbers as JavaScript
 * prints them, which round-trips), computed once: the same data always gives the same result, so a report
 * computed again while a run goes resamples only the cells whose data changed, and two analyses of one cell
 * resample it once. In a profile of `memicl serve` under `npm run bench -- grid --readers 10`, Algorithm 1's
 * 10,000 resamples of every sample took 0.4-0.7 s of the event loop at each recomputation (docs/BENCHMARKS.md).
 */
function remembered<T>(key: string, compute: () => T): T {
  if (REMEMBERED.has(key)) {
    const value = REMEMBERED.get(key) as T;
    REMEMBERED.delete(key);
    REMEMBERED.set(key, value);
    return value;
  }
  const value = compute();
  REMEMBERED.set(key, value);
  if (REMEMBERED.size > REMEMBERED_LIMIT) REMEMBERED.delete(REMEMBERED.keys().next().value!);
  return value;
}

/** A cluster's contribution to a pooled rate: its successes out of its trials. */
export interface Cluster {
  successes: number;
  trials: number;
}

/**
 * Cluster (instance-level) bootstrap interval of a pooled rate, sum(successes) / sum(trials): whole clusters are
 * resampled, so the repeated observations of one instance (the same instance at several k, or several runs) move
 * together, as they are correlated. With one trial per cluster it approximates the binomial interval.
 */
export function clusterBootstrapRate(
  clusters: readonly Cluster[],
  options: { seed?: number; resamples?: number } = {},
): Interval | null {
  const key = `rate ${options.seed ?? BOOTSTRAP_SEED} ${options.resamples ?? BOOTSTRAP_RESAMPLES} ${clusters
    .map((cluster) => `${cluster.successes}/${cluster.trials}`)
    .join(" ")}`;
  const interval = remembered(key, () => resampledRate(clusters, options));
  return interval && { ...interval };
}

/**
 * A pooled rate's interval over clusters: the cluster bootstrap, or, where it has no width (no event or every
 * trial an event, or every cluster at the same rate, so every resample is alike), the Wilson score interval with
 * the clusters (instances) as the independent units, the pooled rate as their share. `byInstances` says which.
 */
export function clusterRateInterval(
  clusters: readonly Cluster[],
  options: { seed?: number; resamples?: number } = {},
): { interval: Interval; byInstances: boolean } | null {
  const interval = clusterBootstrapRate(clusters, options);
  if (!interval) return null;
  if (interval.high > interval.low) return { interval, byInstances: false };
  const kept = clusters.filter((cluster) => cluster.trials > 0);
  const successes = kept.reduce((sum, cluster) => sum + cluster.successes, 0);
  const trials = kept.reduce((sum, cluster) => sum + cluster.trials, 0);
  return { interval: wilsonInterval((successes / trials) * kept.length, kept.length)!, byInstances: true };
}

function resampledRate(
  clusters: readonly Cluster[],
  options: { seed?: number; resamples?: number },
): Interval | null {
  const kept = clusters.filter((cluster) => cluster.trials > 0);
  if (kept.length === 0) return null;
  const successes = Float64Array.from(kept, (cluster) => cluster.successes);
  const trials = Float64Array.from(kept, (cluster) => cluster.trials);
  const n = kept.length;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  // percentileBootstrap's method on the same shared indices, with the statistic inlined: this runs for every
  // pooled row of a report, and a call per resample costs it about three times as much.
  const indices = resampleIndices(n, resamples, options.seed ?? BOOTSTRAP_SEED);
  const rates = new Float64Array(resamples);
  for (let resample = 0, offset = 0; resample < resamples; resample += 1, offset += n) {
    let s = 0;
    let t = 0;
    for (let i = offset; i < offset + n; i += 1) {
      s += successes[indices[i]];
      t += trials[indices[i]];
    }
    rates[resample] = s / t;
  }
  rates.sort();
  return { low: quantile(rates, 0.025), high: quantile(rates, 0.975) };
}

/** Time Travel's Algorithm 1 resamples 10,000 times. */
export const GUIDED_GENERAL_RESAMPLES = 10_000;

/**
 * One-sided paired bootstrap of "the mean of `differences` is above 0": the per-instance differences are
 * resampled with replacement; p is the share of resampled means at or below 0. Null without differences.
 */
export function pairedBootstrapP(
  differences: readonly number[],
  options: { seed?: number; resamples?: number } = {},
): number | null {
  const key = `paired ${options.seed ?? BOOTSTRAP_SEED} ${options.resamples ?? GUIDED_GENERAL_RESAMPLES} ${differences.join(" ")}`;
  return remembered(key, () => resampledPairedP(differences, options));
}

function resampledPairedP(
  differences: readonly number[],
  options: { seed?: number; resamples?: number },
): number | null {
  const n = differences.length;
  if (n === 0) return null;
  const resamples = options.resamples ?? GUIDED_GENERAL_RESAMPLES;
  const draw = indexDraws(options.seed ?? BOOTSTRAP_SEED);
  let atOrBelow = 0;
  for (let resample = 0; resample < resamples; resample += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += differences[draw(n)];
    if (sum <= 1e-12) atOrBelow += 1;
  }
  return atOrBelow / resamples;
}

/**
 * The unpaired variant, as Time Travel's helper (`bootstrap_helper.py`) does it, but seeded: each list is
 * resampled on its own; p = 1 - the share of resamples whose mean of `a` beats the mean of `b`.
 */
export function unpairedBootstrapP(
  a: readonly number[],
  b: readonly number[],
  options: { seed?: number; resamples?: number } = {},
): number | null {
  const key = `unpaired ${options.seed ?? BOOTSTRAP_SEED} ${options.resamples ?? GUIDED_GENERAL_RESAMPLES} ${a.join(" ")} | ${b.join(" ")}`;
  return remembered(key, () => resampledUnpairedP(a, b, options));
}

function resampledUnpairedP(
  a: readonly number[],
  b: readonly number[],
  options: { seed?: number; resamples?: number },
): number | null {
  if (a.length === 0 || b.length === 0) return null;
  const resamples = options.resamples ?? GUIDED_GENERAL_RESAMPLES;
  const draw = indexDraws(options.seed ?? BOOTSTRAP_SEED);
  let beats = 0;
  for (let resample = 0; resample < resamples; resample += 1) {
    let sumA = 0;
    for (let i = 0; i < a.length; i += 1) sumA += a[draw(a.length)];
    let sumB = 0;
    for (let i = 0; i < b.length; i += 1) sumB += b[draw(b.length)];
    if (sumA / a.length > sumB / b.length) beats += 1;
  }
  return 1 - beats / resamples;
}
