// Membership inference as a decision: how well a score tells members from non-members (ROC AUC, TPR at a low
// FPR), and whether one split's scores sit above another's (Mann-Whitney U). Pure.

import { averageRanks } from "./correlation";
import { normalCdf } from "./distributions";
import { wilsonInterval, Z95 } from "./intervals";

/** P(a member's score > a non-member's), ties counting half: the area under the ROC curve. */
export function rocAuc(members: readonly number[], nonMembers: readonly number[]): number | null {
  if (members.length === 0 || nonMembers.length === 0) return null;
  const ranks = averageRanks([...members, ...nonMembers]);
  let rankSum = 0;
  for (let i = 0; i < members.length; i += 1) rankSum += ranks[i];
  const u = rankSum - (members.length * (members.length + 1)) / 2;
  return u / (members.length * nonMembers.length);
}

/**
 * A 95% interval for the AUC by Hanley & McNeil's (1982) standard error, clipped to [0, 1]: the AUC's variance
 * from Q1 = A / (2 - A) and Q2 = 2A^2 / (1 + A) (an exponential approximation of the two score distributions).
 * At an AUC of 0 or 1, where that error is 0, the Wilson score interval over the smaller group's size.
 */
export function aucInterval(auc: number, members: number, nonMembers: number, z = Z95): [number, number] {
  const q1 = auc / (2 - auc);
  const q2 = (2 * auc * auc) / (1 + auc);
  const variance =
    (auc * (1 - auc) + (members - 1) * (q1 - auc * auc) + (nonMembers - 1) * (q2 - auc * auc)) /
    (members * nonMembers);
  const se = Math.sqrt(Math.max(0, variance));
  if (se > 0) return [Math.max(0, auc - z * se), Math.min(1, auc + z * se)];
  // At an AUC of 0 or 1 the standard error is 0: a Wilson score interval with the smaller group's size as the
  // count of independent comparisons, so the interval never claims certainty.
  const count = Math.min(members, nonMembers);
  const interval = wilsonInterval(auc * count, count, z)!;
  return [interval.low, interval.high];
}

/**
 * The true-positive rate at a false-positive rate of at most `fpr`: flagging scores strictly above a threshold
 * that at most floor(fpr x non-members) non-members exceed (ties at the threshold are not flagged, so the rate is
 * never overstated).
 */
export function tprAtFpr(
  members: readonly number[],
  nonMembers: readonly number[],
  fpr: number,
): number | null {
  if (members.length === 0 || nonMembers.length === 0) return null;
  const allowed = Math.floor(fpr * nonMembers.length);
  if (allowed >= nonMembers.length) return 1;
  const descending = [...nonMembers].sort((a, b) => b - a);
  const threshold = descending[allowed];
  return members.filter((score) => score > threshold).length / members.length;
}

export interface MannWhitney {
  /** U of the first sample: pairs (x, y) with x > y, ties counting half. */
  u: number;
  /** One-sided p-value for "the first sample's scores are larger" (normal approximation, ties and continuity corrected). */
  pValue: number;
}

/**
 * The Mann-Whitney U test, one-sided (x stochastically larger than y), by its normal approximation with the tie
 * correction of the variance and a continuity correction of 0.5: scipy's `mannwhitneyu(x, y,
 * alternative="greater", method="asymptotic")`. Null with an empty sample.
 */
export function mannWhitneyGreater(x: readonly number[], y: readonly number[]): MannWhitney | null {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) return null;
  const all = [...x, ...y];
  const ranks = averageRanks(all);
  let rankSum = 0;
  for (let i = 0; i < n1; i += 1) rankSum += ranks[i];
  const u = rankSum - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const ties = new Map<number, number>();
  for (const value of all) ties.set(value, (ties.get(value) ?? 0) + 1);
  let tieTerm = 0;
  for (const count of ties.values()) tieTerm += count ** 3 - count;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (sd === 0) return { u, pValue: 1 };
  const z = (u - (n1 * n2) / 2 - 0.5) / sd;
  return { u, pValue: 1 - normalCdf(z) };
}
