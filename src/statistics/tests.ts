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
