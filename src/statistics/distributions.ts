// The distributions the tests need, from @stdlib: some 350 small modules, about 0.1 s to load in a process (and
// more in every test file under jest). Each is loaded by the first test that computes one, not by every process
// that imports the statistics (each CLI command, the server at its start).
type BinomialCdf = typeof import("@stdlib/stats-base-dists-binomial-cdf");
type HypergeometricPmf = typeof import("@stdlib/stats-base-dists-hypergeometric-pmf");
type TCdf = typeof import("@stdlib/stats-base-dists-t-cdf");
type NormalCdf = typeof import("@stdlib/stats-base-dists-normal-cdf");

let binomial: BinomialCdf | undefined;
let hypergeometric: HypergeometricPmf | undefined;
let t: TCdf | undefined;
let normal: NormalCdf | undefined;

/** P(X <= x) for X ~ Binomial(n, p). */
export function binomialCdf(x: number, n: number, p: number): number {
  binomial ??= require("@stdlib/stats-base-dists-binomial-cdf") as BinomialCdf;
  return binomial(x, n, p);
}

/** P(X = x) for X the marked items among `draws` drawn from `population` items of which `marked` are marked. */
export function hypergeometricPmf(x: number, population: number, marked: number, draws: number): number {
  hypergeometric ??= require("@stdlib/stats-base-dists-hypergeometric-pmf") as HypergeometricPmf;
  return hypergeometric(x, population, marked, draws);
}

/** P(T <= x) for T ~ Student's t with `degreesOfFreedom`. */
export function tCdf(x: number, degreesOfFreedom: number): number {
  t ??= require("@stdlib/stats-base-dists-t-cdf") as TCdf;
  return t(x, degreesOfFreedom);
}

/** P(Z <= x) for Z ~ Normal(0, 1). */
export function normalCdf(x: number): number {
  normal ??= require("@stdlib/stats-base-dists-normal-cdf") as NormalCdf;
  return normal(x, 0, 1);
}
