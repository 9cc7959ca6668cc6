import { fleissKappa } from "../statistics/inter-rater";
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

/** One reviewer's latest verdict on one completion. */
export interface Rating {
  item: string;
  reviewer: string;
  verdict: JudgeVerdict;
}

export interface InterAnnotatorAgreement {
  /** Reviewers with a rating on an item some other reviewer rated too. */
  reviewers: string[];
  /** Items the statistic is computed on. */
  items: number;
  /** Items rated by two or more reviewers that the statistic leaves out (Fleiss: another number of ratings). */
  excluded: number;
  /** COHEN for two reviewers, FLEISS for more, NONE when no item has two ratings. */
  statistic: "COHEN" | "FLEISS" | "NONE";
  /** Over EXACT / NEAR_EXACT / INEXACT. */
  kappa: number;
  /** Over memorized vs not. */
  kappaBinary: number;
  /** Items on which every reviewer gave the same verdict, as a share of `items`. */
  percentAgreement: number;
}

/**
 * Agreement between human reviewers (UNPARSEABLE ratings left out): Cohen's kappa when two reviewers rated the
 * items rated more than once, Fleiss' when more did, computed on the items with the most common number of
 * ratings (Fleiss needs the same number per item; the rest are `excluded`).
 */
export function interAnnotatorAgreement(ratings: readonly Rating[]): InterAnnotatorAgreement {
  const byItem = new Map<string, Map<string, JudgeVerdict>>();
  for (const { item, reviewer, verdict } of ratings) {
    if (verdict === "UNPARSEABLE") continue;
    const of = byItem.get(item) ?? new Map<string, JudgeVerdict>();
    of.set(reviewer, verdict);
    byItem.set(item, of);
  }
  const shared = [...byItem.values()].filter((of) => of.size >= 2);
  const reviewers = [...new Set(shared.flatMap((of) => [...of.keys()]))].sort();
  const none = {
    reviewers,
    items: 0,
    excluded: shared.length,
    statistic: "NONE" as const,
    kappa: Number.NaN,
    kappaBinary: Number.NaN,
    percentAgreement: Number.NaN,
  };
  if (shared.length === 0) return none;
  const unanimous = (of: Map<string, JudgeVerdict>) => new Set(of.values()).size === 1;
  if (reviewers.length === 2) {
    const pairs = shared.map((of) => reviewers.map((name) => of.get(name)!) as [JudgeVerdict, JudgeVerdict]);
    return {
      reviewers,
      items: pairs.length,
      excluded: 0,
      statistic: "COHEN",
      kappa: cohensKappa(pairs),
      kappaBinary: cohensKappa(pairs.map(([a, b]) => [isMemorized(a), isMemorized(b)] as [boolean, boolean])),
      percentAgreement: shared.filter(unanimous).length / shared.length,
    };
  }
  const sizes = new Map<number, number>();
  for (const of of shared) sizes.set(of.size, (sizes.get(of.size) ?? 0) + 1);
  const [m] = [...sizes].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0];
  const used = shared.filter((of) => of.size === m);
  const table = used.map((of) =>
    VERDICT_ORDER.map((verdict) => [...of.values()].filter((v) => v === verdict).length),
  );
  const binary = used.map((of) => {
    const memorized = [...of.values()].filter(isMemorized).length;
    return [memorized, m - memorized];
  });
  return {
    reviewers,
    items: used.length,
    excluded: shared.length - used.length,
    statistic: "FLEISS",
    kappa: fleissKappa(table),
    kappaBinary: fleissKappa(binary),
    percentAgreement: used.filter(unanimous).length / used.length,
  };
}
