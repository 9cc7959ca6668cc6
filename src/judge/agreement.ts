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
  /** Every reviewer with a readable rating in scope. */
  reviewers: string[];
  /** Items every one of them rated: the statistic is computed on these. */
  items: number;
  /** Items rated by two or more reviewers but not by all, left out. */
  excluded: number;
  /** COHEN for two reviewers, FLEISS for more, NONE when no item was rated by all (or fewer than two reviewed). */
  statistic: "COHEN" | "FLEISS" | "NONE";
  /** Over EXACT / NEAR_EXACT / INEXACT. */
  kappa: number;
  /** Over memorized vs not. */
  kappaBinary: number;
  /** Items on which every reviewer gave the same verdict, as a share of `items`. */
  percentAgreement: number;
}

/**
 * Agreement between human reviewers (UNPARSEABLE ratings left out), on the items **every** reviewer rated, so that
 * each reviewer's verdicts count on the same items: Cohen's kappa for two reviewers, Fleiss' for more. Items rated
 * by some but not all are `excluded`, and counted.
 */
export function interAnnotatorAgreement(ratings: readonly Rating[]): InterAnnotatorAgreement {
  const byItem = new Map<string, Map<string, JudgeVerdict>>();
  for (const { item, reviewer, verdict } of ratings) {
    if (verdict === "UNPARSEABLE") continue;
    const of = byItem.get(item) ?? new Map<string, JudgeVerdict>();
    of.set(reviewer, verdict);
    byItem.set(item, of);
  }
  const reviewers = [...new Set([...byItem.values()].flatMap((of) => [...of.keys()]))].sort();
  const shared = [...byItem.values()].filter((of) => of.size >= 2);
  const used = reviewers.length >= 2 ? shared.filter((of) => of.size === reviewers.length) : [];
  const none = {
    reviewers,
    items: 0,
    excluded: shared.length,
    statistic: "NONE" as const,
    kappa: Number.NaN,
    kappaBinary: Number.NaN,
    percentAgreement: Number.NaN,
  };
  if (used.length === 0) return none;
  const unanimous = (of: Map<string, JudgeVerdict>) => new Set(of.values()).size === 1;
  const excluded = shared.length - used.length;
  if (reviewers.length === 2) {
    const pairs = used.map((of) => reviewers.map((name) => of.get(name)!) as [JudgeVerdict, JudgeVerdict]);
    return {
      reviewers,
      items: pairs.length,
      excluded,
      statistic: "COHEN",
      kappa: cohensKappa(pairs),
      kappaBinary: cohensKappa(pairs.map(([a, b]) => [isMemorized(a), isMemorized(b)] as [boolean, boolean])),
      percentAgreement: used.filter(unanimous).length / used.length,
    };
  }
  const m = reviewers.length;
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
    excluded,
    statistic: "FLEISS",
    kappa: fleissKappa(table),
    kappaBinary: fleissKappa(binary),
    percentAgreement: used.filter(unanimous).length / used.length,
  };
}
