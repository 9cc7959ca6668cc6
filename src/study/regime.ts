/** The study's regimes: k = 0 zero-shot, k <= 50 few-shot (25, 50), larger many-shot (100, 200). */
export enum Regime {
  ZERO_SHOT = "ZERO_SHOT",
  FEW_SHOT = "FEW_SHOT",
  MANY_SHOT = "MANY_SHOT",
}

export const REGIME_ORDER: readonly Regime[] = [Regime.ZERO_SHOT, Regime.FEW_SHOT, Regime.MANY_SHOT];

export function regimeOf(shots: number): Regime {
  if (shots === 0) return Regime.ZERO_SHOT;
  return shots <= 50 ? Regime.FEW_SHOT : Regime.MANY_SHOT;
}
