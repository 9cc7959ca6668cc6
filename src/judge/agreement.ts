import { isMemorized, JudgeVerdict } from "./verdicts";

export const VERDICT_ORDER: JudgeVerdict[] = ["EXACT", "NEAR_EXACT", "INEXACT"];

export interface Agreement {
  /** Pairs where both sides gave one of the three verdicts. */
  n: number;
  /** Pairs left out because a side was UNPARSEABLE or missing. */
  excluded: number;
  agreed: number;
  percentAgreement: number;
  /** Cohen's kappa over EXACT / NEAR_EXACT / INEXACT. */
  kappa: number;
  /** Cohen's kappa over memorized (exact or near-exact) vs not. */
  kappaBinary: number;
  binaryAgreement: number;
  /** rows: side A's verdict, columns: side B's, both in EXACT, NEAR_EXACT, INEXACT order. */
  confusion: number[][];
}

/** Cohen's kappa for paired labels: (observed - chance) / (1 - chance); 1 when chance agreement is total. */
export function cohensKappa<T>(pairs: readonly [T, T][]): number {
  if (pairs.length === 0) return Number.NaN;
  const n = pairs.length;
  const observed = pairs.filter(([a, b]) => a === b).length / n;
  const countA = new Map<T, number>();
  const countB = new Map<T, number>();
  for (const [a, b] of pairs) {
    countA.set(a, (countA.get(a) ?? 0) + 1);
    countB.set(b, (countB.get(b) ?? 0) + 1);
  }
  let chance = 0;
  for (const [label, count] of countA) chance += (count / n) * ((countB.get(label) ?? 0) / n);
  return chance === 1 ? 1 : (observed - chance) / (1 - chance);
}

/** Agreement between two judges over the same items. */
export function agreement(pairs: readonly [JudgeVerdict | null, JudgeVerdict | null][]): Agreement {
  const usable = pairs.filter(
    (pair): pair is [JudgeVerdict, JudgeVerdict] =>
      pair[0] !== null && pair[1] !== null && pair[0] !== "UNPARSEABLE" && pair[1] !== "UNPARSEABLE",
  );
  const confusion = VERDICT_ORDER.map(() => VERDICT_ORDER.map(() => 0));
  for (const [a, b] of usable) confusion[VERDICT_ORDER.indexOf(a)][VERDICT_ORDER.indexOf(b)] += 1;
  const agreed = usable.filter(([a, b]) => a === b).length;
  const binary = usable.map(([a, b]) => [isMemorized(a), isMemorized(b)] as [boolean, boolean]);
  return {
    n: usable.length,
    excluded: pairs.length - usable.length,
    agreed,
    percentAgreement: usable.length ? agreed / usable.length : Number.NaN,
    kappa: cohensKappa(usable),
    kappaBinary: cohensKappa(binary),
    binaryAgreement: usable.length ? binary.filter(([a, b]) => a === b).length / usable.length : Number.NaN,
    confusion,
  };
}
