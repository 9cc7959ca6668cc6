/** A two-sided 95% interval. */
export interface Interval {
  low: number;
  high: number;
}

export const Z95 = 1.959963984540054;

/** Wilson score interval for a proportion; sound near 0 and 1 and for small n (Wilson 1927). */
export function wilsonInterval(successes: number, n: number, z = Z95): Interval | null {
  if (n === 0) return null;
  const p = successes / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const margin = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  // At 0 or n successes the bound is exactly 0 or 1 (centre - margin would round to a few 1e-17 either way).
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - margin),
    high: successes === n ? 1 : Math.min(1, centre + margin),
  };
}

export interface Difference extends Interval {
  /** p1 - p2. */
  difference: number;
}

/**
 * The difference of two independent proportions, p1 - p2, with Newcombe's hybrid score interval (Newcombe 1998,
 * method 10): each proportion's Wilson interval, combined by the square-and-add rule. Null when a group is empty.
 */
export function newcombeDifference(x1: number, n1: number, x2: number, n2: number): Difference | null {
  const a = wilsonInterval(x1, n1);
  const b = wilsonInterval(x2, n2);
  if (!a || !b) return null;
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const difference = p1 - p2;
  return {
    difference,
    low: difference - Math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2),
    high: difference + Math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2),
  };
}
