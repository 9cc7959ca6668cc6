import { binomialCdf, hypergeometricPmf } from "./distributions";

/** Relative tolerance for "as or more extreme" comparisons of probabilities (as R's fisher.test uses). */
const RELATIVE_ERROR = 1 + 1e-7;

/**
 * Fisher's exact test of a 2 x 2 table [[a, b], [c, d]], two-sided: the total probability of every table with the
 * same margins that is no more likely than the observed one (the definition R's `fisher.test` and
 * `scipy.stats.fisher_exact` use). Null for a table with an empty row or column.
 */
export function fisherExact(a: number, b: number, c: number, d: number): number | null {
  const row1 = a + b;
  const column1 = a + c;
  const total = a + b + c + d;
  if (row1 === 0 || c + d === 0 || column1 === 0 || b + d === 0) return null;
  // a follows a hypergeometric distribution: `column1` draws from `total` items of which `row1` are marked.
  const probability = (x: number) => hypergeometricPmf(x, total, row1, column1);
  const observed = probability(a);
  let p = 0;
  for (let x = Math.max(0, column1 - (c + d)); x <= Math.min(row1, column1); x += 1) {
    const px = probability(x);
    if (px <= observed * RELATIVE_ERROR) p += px;
  }
  return Math.min(1, p);
}

/**
 * McNemar's test for paired binary outcomes, exact form: of the `b + c` discordant pairs, `b` went one way; under
 * the null hypothesis `b ~ Binomial(b + c, 1/2)`. Two-sided p (as `scipy.stats.binomtest(b, b + c)`); null with no
 * discordant pair.
 */
export function mcnemarExact(b: number, c: number): number | null {
  const n = b + c;
  if (n === 0) return null;
  return Math.min(1, 2 * binomialCdf(Math.min(b, c), n, 0.5));
}

/**
 * Holm's step-down adjustment of a family of p-values (controls the family-wise error rate); nulls stay null and
 * are not counted in the family. Adjusted values are monotone in the raw ones and capped at 1.
 */
export function holmAdjust(pValues: readonly (number | null)[]): (number | null)[] {
  const present = pValues
    .map((p, index) => ({ p, index }))
    .filter((entry): entry is { p: number; index: number } => entry.p !== null)
    .sort((x, y) => x.p - y.p);
  const m = present.length;
  const adjusted: (number | null)[] = pValues.map(() => null);
  let running = 0;
  present.forEach((entry, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * entry.p));
    adjusted[entry.index] = running;
  });
  return adjusted;
}

/**
 * The exact one-sided binomial test of "the rate exceeds p0": P(X >= x) for X ~ Binomial(n, p0), as
 * `scipy.stats.binomtest(x, n, p0, alternative="greater")`. Null without trials.
 */
export function binomialGreater(x: number, n: number, p0: number): number | null {
  if (n <= 0) return null;
  if (x <= 0) return 1;
  return Math.min(1, Math.max(0, 1 - binomialCdf(x - 1, n, p0)));
}

/**
 * The smallest count that the one-sided binomial test at level `alpha` rejects with (P(X >= c | n, p0) <= alpha),
 * or null when not even all `n` would.
 */
export function binomialCriticalCount(n: number, p0: number, alpha: number): number | null {
  for (let c = 0; c <= n; c += 1) if ((binomialGreater(c, n, p0) ?? 1) <= alpha) return c;
  return null;
}

/**
 * The smallest true rate the one-sided binomial test (n trials, null rate p0, level alpha) detects with the given
 * power: the rate at which P(X >= critical count) reaches `power`, found by bisection to 1e-4. Null when the
 * test cannot reject at all (too few trials).
 */
export function minimumDetectableRate(n: number, p0: number, alpha: number, power = 0.8): number | null {
  const critical = binomialCriticalCount(n, p0, alpha);
  if (critical === null) return null;
  let low = p0;
  let high = 1;
  while (high - low > 1e-4) {
    const mid = (low + high) / 2;
    if ((binomialGreater(critical, n, mid) ?? 0) >= power) high = mid;
    else low = mid;
  }
  return high;
}

/**
 * The smallest true rate that the replication verdict's pair of tests detects with the given power when it also
 * compares with a control: the sample's count X ~ Binomial(n, rate) must reject the one-sided binomial test
 * against `p0` and, against a control count Y ~ Binomial(m, controlRate), the one-sided Fisher test of "the
 * sample's rate exceeds the control's", both at `alpha` (an intersection-union test). Exact: for each control
 * count y, the smallest x both tests reject with, then P(X >= x(y)) weighted by P(Y = y); bisection to 1e-4.
 * Null when the pair cannot reach the power even at a rate of 1 (a control too small, or too few trials).
 */
export function minimumDetectableRateWithControl(
  n: number,
  m: number,
  p0: number,
  controlRate: number,
  alpha: number,
  power = 0.8,
): number | null {
  if (m <= 0) return minimumDetectableRate(n, p0, alpha, power);
  const powerAt = pairPower(n, p0, alpha, { size: m, rate: controlRate });
  if (!powerAt || powerAt(1) < power) return null;
  let low = p0;
  let high = 1;
  while (high - low > 1e-4) {
    const mid = (low + high) / 2;
    if (powerAt(mid) >= power) high = mid;
    else low = mid;
  }
  return high;
}

/**
 * The probability that the verdict's test rejects at a true rate `rate`: the binomial test against `p0` alone, or,
 * with a control of `control.size` eligible instances at `control.rate`, the pair (both must reject). 0 when no
 * count can reject (an empty control included).
 */
export function detectionPower(
  n: number,
  rate: number,
  p0: number,
  alpha: number,
  control?: { size: number; rate: number },
): number {
  return pairPower(n, p0, alpha, control)?.(rate) ?? 0;
}

/** The power of the verdict's test as a function of the true rate; null when no count can reject. */
function pairPower(
  n: number,
  p0: number,
  alpha: number,
  control?: { size: number; rate: number },
): ((rate: number) => number) | null {
  const critical = binomialCriticalCount(n, p0, alpha);
  if (critical === null) return null;
  if (!control) return (rate) => binomialGreater(critical, n, rate) ?? 0;
  const m = control.size;
  if (m <= 0) return null;
  const fisherRejects = (x: number, y: number) => {
    const p = fisherGreater(x, n - x, y, m - y);
    return p !== null && p <= alpha;
  };
  // The control counts that carry weight (P(Y = y) above 1e-12: a few standard deviations around m x rate).
  const counts: { weight: number; threshold: number }[] = [];
  // Fisher's p falls as x grows and rises with y: for each y, the first x both tests reject with (a binary
  // search from the last y's), or none (Infinity).
  let from = Math.max(critical, 1);
  for (let y = 0; y <= m; y += 1) {
    const weight =
      (binomialGreater(y, m, control.rate) ?? 0) - (binomialGreater(y + 1, m, control.rate) ?? 0);
    if (!(weight > 1e-12)) continue;
    let threshold = Number.POSITIVE_INFINITY;
    if (from <= n && fisherRejects(n, y)) {
      let low = from;
      let high = n;
      while (low < high) {
        const mid = Math.floor((low + high) / 2);
        if (fisherRejects(mid, y)) high = mid;
        else low = mid + 1;
      }
      threshold = low;
      from = low;
    }
    counts.push({ weight, threshold });
  }
  return (rate) =>
    counts.reduce(
      (sum, { weight, threshold }) =>
        Number.isFinite(threshold) ? sum + weight * (binomialGreater(threshold, n, rate) ?? 0) : sum,
      0,
    );
}

/**
 * One-sided Fisher's exact test of "group 1's rate exceeds group 2's" on a 2 x 2 table [[a, b], [c, d]] (rows
 * the groups, columns success/failure): P(A >= a) under the hypergeometric, as
 * `scipy.stats.fisher_exact(table, alternative="greater")`. Null for an empty row or column.
 */
export function fisherGreater(a: number, b: number, c: number, d: number): number | null {
  const row1 = a + b;
  const column1 = a + c;
  const total = a + b + c + d;
  if (row1 === 0 || c + d === 0 || column1 === 0 || b + d === 0) return null;
  let p = 0;
  for (let x = a; x <= Math.min(row1, column1); x += 1) p += hypergeometricPmf(x, total, row1, column1);
  return Math.min(1, p);
}

/**
 * The probability that Time Travel's rule (>= `exactNeeded` exact or >= `nearNeeded` near-exact among `draws`
 * instances drawn without replacement) fires for a model with no memory, whose no-memory answers are exact for
 * `exactFloor` and near-exact for `nearFloor` of the `population` instances it is drawn from (multivariate
 * hypergeometric). Null for an empty population.
 */
export function ruleFalsePositiveRate(
  population: number,
  exactFloor: number,
  nearFloor: number,
  draws: number,
  exactNeeded = 1,
  nearNeeded = 2,
): number | null {
  if (population <= 0) return null;
  const take = Math.min(draws, population);
  const rest = population - exactFloor - nearFloor;
  // P(no rule) = sum over e < exactNeeded, m < nearNeeded of C(E,e) C(N,m) C(R, take-e-m) / C(P, take).
  const logChoose = (n: number, k: number) =>
    k < 0 || k > n ? Number.NEGATIVE_INFINITY : logFactorial(n) - logFactorial(k) - logFactorial(n - k);
  let quiet = 0;
  for (let e = 0; e < exactNeeded; e += 1)
    for (let m = 0; m < nearNeeded; m += 1)
      quiet += Math.exp(
        logChoose(exactFloor, e) +
          logChoose(nearFloor, m) +
          logChoose(rest, take - e - m) -
          logChoose(population, take),
      );
  return Math.min(1, Math.max(0, 1 - quiet));
}

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i += 1) logFactorials[i] = logFactorials[i - 1] + Math.log(i);
  return logFactorials[n];
}
