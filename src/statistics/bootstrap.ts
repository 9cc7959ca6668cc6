import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { Interval } from "./intervals";

/** Resamples of every bootstrap interval: enough for a stable 95% percentile interval (Efron & Tibshirani). */
export const BOOTSTRAP_RESAMPLES = 2000;

/** The seed of the report's bootstrap intervals, so the same data always gives the same interval. */
export const BOOTSTRAP_SEED = 20_240_601;

/** Linear-interpolation quantile of sorted values (numpy's default, "linear"). */
export function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/**
 * A percentile bootstrap interval: `statistic` is evaluated on `resamples` draws of n indices with replacement
 * from a seeded generator; resamples where it is undefined (NaN, e.g. a constant series) are dropped. Null when
 * fewer than half the resamples give a value.
 */
export function percentileBootstrap(
  n: number,
  statistic: (indices: Uint32Array) => number,
  options: { seed?: number; resamples?: number } = {},
): Interval | null {
  if (n === 0) return null;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const generator = xoroshiro128plus(options.seed ?? BOOTSTRAP_SEED);
  const values: number[] = [];
  const indices = new Uint32Array(n);
  for (let draw = 0; draw < resamples; draw += 1) {
    for (let i = 0; i < n; i += 1) indices[i] = uniformInt(generator, 0, n - 1);
    const value = statistic(indices);
    if (Number.isFinite(value)) values.push(value);
  }
  if (values.length < resamples / 2) return null;
  values.sort((a, b) => a - b);
  return { low: quantile(values, 0.025), high: quantile(values, 0.975) };
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
  const kept = clusters.filter((cluster) => cluster.trials > 0);
  if (kept.length === 0) return null;
  const successes = Float64Array.from(kept, (cluster) => cluster.successes);
  const trials = Float64Array.from(kept, (cluster) => cluster.trials);
  return percentileBootstrap(
    kept.length,
    (indices) => {
      let s = 0;
      let t = 0;
      for (const index of indices) {
        s += successes[index];
        t += trials[index];
      }
      return s / t;
    },
    options,
  );
}
