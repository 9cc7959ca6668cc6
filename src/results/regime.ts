export type Regime = "ZERO_SHOT" | "FEW_SHOT" | "MANY_SHOT";

/** The study's regimes: k = 0 zero-shot, k <= 50 few-shot (25, 50), larger many-shot (100, 200). */
export function regimeOf(shots: number): Regime {
  if (shots === 0) return "ZERO_SHOT";
  return shots <= 50 ? "FEW_SHOT" : "MANY_SHOT";
}
